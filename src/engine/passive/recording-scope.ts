import type { LoadedSuite } from '../model.js';
import { passivePlan } from './passive-plan.js';
import { casePatterns } from './request-pattern.js';
import type { PassiveRule } from './passive-rules.js';

/** How a requirement is settled from a recording: a case judged on single exchanges, a case that opted in, or a passive rule. */
export type SettledBy = { kind: 'exchange-case' | 'opted-in-case'; id: string } | { kind: 'rule'; id: string };

/** What a recording can settle of a suite at the default gate (MUST), derived from its cases and passive rules. */
export interface RecordingScope {
  /**
   * The gating requirements (level MUST, not excluded, covered by a case or a passive rule), in
   * catalog order: those a passive run counts as gating (verdicts.ts, judgedFraction).
   */
  gating: string[];
  /** Each gating requirement a recording can settle, with what settles it; the others need live requests. */
  settledBy: Map<string, SettledBy[]>;
}

/**
 * What `--target har:` can judge of a suite, before any recording is read: a gating requirement
 * can be settled when a case covering it judges single exchanges (its plan is `api.*` verifiers,
 * passive-suite.ts passivePlan), when a case covering it opted in (`passive: judge`) and each of
 * its steps can stand for a recorded exchange (request-pattern.ts casePatterns), or when one
 * of the suite's passive rules declares it. Undefined for a suite without an API table, which a
 * recording cannot be matched to.
 */
export function recordingScope(suite: LoadedSuite, rules: Readonly<Record<string, PassiveRule>> = {}): RecordingScope | undefined {
  if (!suite.api) return undefined;
  const by = new Map<string, SettledBy[]>();
  const add = (requirement: string, s: SettledBy): void => {
    const list = by.get(requirement) ?? [];
    if (!list.some((x) => x.kind === s.kind && x.id === s.id)) list.push(s);
    by.set(requirement, list);
  };
  const covered = new Set<string>();
  for (const c of suite.cases) {
    for (const r of c.requirements) covered.add(r);
    if (c.skip !== undefined) continue;
    if (c.passive === 'judge') {
      // judged only when every step can stand for a recorded one (passive-case.ts skips it otherwise)
      if (!casePatterns(c, suite.api).problems.length) for (const r of c.requirements) add(r, { kind: 'opted-in-case', id: c.id });
      continue;
    }
    // each step judges its own requirement when it names one, the case's otherwise (as judged)
    for (const step of passivePlan(c) ?? []) for (const r of step.requirement ? [step.requirement] : c.requirements) add(r, { kind: 'exchange-case', id: c.id });
  }
  for (const [name, rule] of Object.entries(rules))
    for (const r of rule.requirements) {
      covered.add(r);
      add(r, { kind: 'rule', id: `passive:${name}` });
    }
  const gating = suite.requirements.filter((r) => r.level === 'MUST' && r.excluded === undefined && covered.has(r.id)).map((r) => r.id);
  const settledBy = new Map(gating.filter((id) => by.has(id)).map((id) => [id, by.get(id) as SettledBy[]]));
  return { gating, settledBy };
}
