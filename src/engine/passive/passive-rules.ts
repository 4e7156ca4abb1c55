import type { ApiTable } from '../api/table.js';
import type { CaseResult, Exchange, Failure, LoadedSuite, Selection } from '../model.js';
import { keepFailure } from '../runtime/failure-cap.js';
import type { Recording } from '../../targets/har/recording.js';
import type { MatchedExchange, RecordingMatch } from './match-recording.js';

/**
 * A suite's rule over a whole recording (SuiteModule.passiveRules): what a live case would
 * learn by sending requests of its own, read instead from the exchanges a recording holds —
 * an answer compared with an earlier one (a conditional poll, the next page of a cursor), the
 * time between two requests, what a client sent. It judges only what the recording shows: a
 * requirement with no observation stays untested, with the rule's reason.
 */
export interface PassiveRule {
  /** What it judges, in a sentence (shown in `list` and as the case's description). */
  description: string;
  /** The requirements it judges (each must be in the suite's catalog). */
  requirements: string[];
  judge(view: PassiveView): PassiveVerdict[];
}

/** A recording as passive rules read it: every exchange matched to its operation, in recording order. */
export interface PassiveView {
  table: ApiTable;
  recording: Recording;
  /** Operation ID -> its exchanges, in recording order. */
  byOperation: ReadonlyMap<string, readonly MatchedExchange[]>;
  /** Every matched exchange, in recording order. */
  exchanges: readonly MatchedExchange[];
}

/** What a rule found of one requirement. */
export interface PassiveVerdict {
  requirement: string;
  /** The exchanges (or pairs, chains) it judged: 0 leaves the requirement untested. */
  observations: number;
  findings: PassiveRuleFinding[];
  /** With no observation: what the recording lacks for it ("no conditional request: no If-None-Match was sent"). */
  lacking?: string;
}

/** One deviation a rule found, on the exchange that shows it (one that fits no operation too: a request sent where no operation is). */
export interface PassiveRuleFinding {
  message: string;
  expected?: unknown;
  actual?: unknown;
  exchange: Pick<MatchedExchange, 'recorded'>;
}

/** Exchanges kept on a rule's result (the failing ones first). */
const KEEP_EXCHANGES = 4;

/**
 * Each passive rule of a suite judged on a recording, as one case result of its own
 * (`passive:<name>`), so verdicts, evidence and reports treat it as any case. A rule none of
 * whose requirements the run judges (another side, outside the selection) is left out.
 */
export function judgePassiveRules(
  suite: LoadedSuite,
  rules: Readonly<Record<string, PassiveRule>>,
  view: PassiveView,
  toExchange: (x: Pick<MatchedExchange, 'recorded'>) => Exchange,
  sides?: readonly string[],
  selection?: Selection,
): CaseResult[] {
  const byId = new Map(suite.requirements.map((r) => [r.id, r]));
  const judged = (id: string): boolean => {
    const r = byId.get(id);
    if (!r || r.excluded) return false;
    if (sides && r.side !== undefined && !sides.includes(r.side)) return false;
    return !selection || selection.requirements.includes(id);
  };
  const results: CaseResult[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const requirements = rule.requirements.filter(judged);
    if (!requirements.length) continue;
    const failures: Failure[] = [];
    const failing: Exchange[] = [];
    const evidence: Record<string, number> = {};
    const noEvidence: Record<string, string> = {};
    for (const v of rule.judge(view)) {
      if (!requirements.includes(v.requirement)) continue;
      evidence[v.requirement] = (evidence[v.requirement] ?? 0) + v.observations;
      if (v.observations === 0) noEvidence[v.requirement] = `passive target: ${v.lacking ?? 'the recording holds nothing this rule judges'}`;
      for (const f of v.findings) {
        const exchange = toExchange(f.exchange);
        if (failing.length < KEEP_EXCHANGES) failing.push(exchange);
        keepFailure(failures, { requirement: v.requirement, message: `${f.exchange.recorded.method} ${f.exchange.recorded.url} (entry ${f.exchange.recorded.index}): ${f.message}`, ...(f.expected !== undefined ? { expected: f.expected } : {}), ...(f.actual !== undefined ? { actual: f.actual } : {}), exchange });
      }
    }
    for (const id of requirements) if (evidence[id] === undefined) noEvidence[id] ??= 'passive target: the recording holds nothing this rule judges';
    const anyObserved = requirements.some((id) => (evidence[id] ?? 0) > 0);
    const base = { suite: suite.name, id: `passive:${name}`, requirements, description: rule.description, failures, exchanges: failing, durationMs: 0, location: { file: `suite ${suite.name}: passive rule ${name}`, line: 0, column: 0 } };
    // with nothing to judge, each requirement keeps what the recording lacked: its verdict says
    // that, not the reason of a live case that also covers it
    if (!anyObserved && !failures.length) results.push({ ...base, outcome: 'skipped', reason: Object.values(noEvidence).join('; '), noEvidence });
    else results.push({ ...base, outcome: failures.length ? 'failed' : 'passed', evidence, ...(Object.keys(noEvidence).length ? { noEvidence } : {}) });
  }
  return results;
}

/** The view rules read, from a match of the recording. */
export function passiveView(table: ApiTable, recording: Recording, match: RecordingMatch): PassiveView {
  const exchanges = [...match.byOperation.values()].flat().sort((a, b) => a.recorded.index - b.recorded.index);
  return { table, recording, byOperation: match.byOperation, exchanges };
}
