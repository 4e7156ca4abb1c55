/**
 * The root failures of a run, as every report leads with them: each failed requirement, the
 * command that replays its first failing case, and the requirements blocked by it (directly, or
 * through a requirement that is blocked by it in turn). A reader fixes the roots; what they
 * block is judged again on the next run. Rules that block others without failing in this run (a
 * precondition's owner the run did not judge) are listed apart.
 */
import type { CaseResult, RequirementVerdict, RunResult } from '../engine/model.js';

export interface RootFailure {
  suite: string;
  verdict: RequirementVerdict;
  /** Whether its level fails the gate in this run. */
  gating: boolean;
  /** The cases that failed it. */
  cases: CaseResult[];
  /** The command that replays its first failing case. */
  replay?: string;
  /** Requirements blocked by it, directly or through one another. */
  blocks: RequirementVerdict[];
}

/** A rule that blocked requirements without itself failing in the run. */
export interface UnjudgedBlocker {
  suite: string;
  requirement: string;
  blocks: RequirementVerdict[];
}

export interface RootCauses {
  roots: RootFailure[];
  blockers: UnjudgedBlocker[];
}

const LEVEL_GATES = (level: string, run: RunResult): boolean => level === 'MUST' || (level === 'SHOULD' && run.strict) || (level === 'STRICTER' && run.stricter === true);

/**
 * The roots of `run`: gating failures first (in catalog order), then the rest; each with what it
 * blocks.
 */
export function rootCauses(run: RunResult): RootCauses {
  const roots: RootFailure[] = [];
  const blockers: UnjudgedBlocker[] = [];
  for (const suite of run.suites) {
    const verdicts = suite.requirements.length ? suite.requirements : run.requirements.filter((v) => v.suite === suite.name);
    const byId = new Map(verdicts.map((v) => [v.id, v]));
    const blockedBy = new Map<string, RequirementVerdict[]>();
    for (const v of verdicts) if (v.status === 'blocked') for (const by of v.blockedBy ?? []) blockedBy.set(by, [...(blockedBy.get(by) ?? []), v]);
    const reach = (id: string): RequirementVerdict[] => {
      const seen = new Set<string>([id]);
      const out: RequirementVerdict[] = [];
      for (let queue = [id]; queue.length; ) {
        const next = queue.shift() as string;
        for (const v of blockedBy.get(next) ?? []) {
          if (seen.has(v.id)) continue;
          seen.add(v.id);
          out.push(v);
          queue.push(v.id);
        }
      }
      return out;
    };
    const failedIn = failingCases(suite.cases);
    for (const v of verdicts) {
      if (v.status !== 'failed') continue;
      const cases = failedIn.get(v.id) ?? [];
      const replay = cases.find((c) => c.replay !== undefined)?.replay ?? cases.find((c) => c.property?.replay)?.property?.replay;
      roots.push({ suite: suite.name, verdict: v, gating: LEVEL_GATES(v.level, run), cases, ...(replay ? { replay } : {}), blocks: reach(v.id) });
    }
    for (const [by, direct] of blockedBy) {
      const owner = byId.get(by);
      if (owner && (owner.status === 'failed' || owner.status === 'blocked')) continue;
      blockers.push({ suite: suite.name, requirement: by, blocks: [...new Set([...direct, ...reach(by)])] });
    }
  }
  roots.sort((a, b) => Number(b.gating) - Number(a.gating));
  return { roots, blockers };
}

/** Requirement ID -> the cases that failed it, in run order: one pass, not one per failed requirement (a merged run may hold 100,000 cases). */
function failingCases(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const out = new Map<string, CaseResult[]>();
  for (const c of cases) {
    for (const id of new Set(c.failures.map((f) => f.requirement))) {
      const list = out.get(id);
      if (list) list.push(c);
      else out.set(id, [c]);
    }
  }
  return out;
}

/** "18 requirements blocked by it: AFF-A, AFF-B, AFF-C and 15 more". */
export function blockedWords(blocks: readonly RequirementVerdict[], show = 6): string {
  if (!blocks.length) return '';
  const ids = blocks.map((v) => v.id);
  const named = ids.slice(0, show).join(', ');
  const more = ids.length - Math.min(show, ids.length);
  return `${ids.length} requirement${ids.length === 1 ? '' : 's'} blocked by it: ${named}${more ? ` and ${more} more` : ''}`;
}
