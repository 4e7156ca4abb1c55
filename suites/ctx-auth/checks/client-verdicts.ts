import { PASS, fail, unjudged, type Verdict } from '../../../src/engine/checks/contract.js';
import { silence, type ClientEvidence, type ScenarioRun, type SentRequest } from './client-evidence.js';
import { requestExchange } from './client-hide.js';

/**
 * A client judge's conclusion: a verdict, or that the requirement does not apply to this client
 * (it sent no state; it implements a later revision), which ends the case not applicable with the reason.
 */
export type ClientVerdict = Verdict;

/** Judges one client requirement from the runs of the scenarios its case names. */
export type ClientJudge = (evidence: ClientEvidence) => ClientVerdict;

/** Judges one requirement from one scenario's run. */
export type RunJudge = (run: ScenarioRun, evidence: ClientEvidence) => ClientVerdict;

export function notApplicable(reason: string): ClientVerdict {
  return { notApplicable: reason };
}

/** One deviation: a message that names the request, and that request (for the report). */
export interface Problem {
  why: string;
  at: SentRequest;
}

/** How many problems a message lists before "and N more". */
const SHOWN = 5;

/** Pass when nothing was found; otherwise a failure listing the problems, the first one's request attached. */
export function verdictOf(run: ScenarioRun, problems: readonly Problem[]): Verdict {
  const first = problems[0];
  if (!first) return PASS;
  const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
  return fail(`${problems.slice(0, SHOWN).map((p) => p.why).join('; ')}${more}`, { exchange: requestExchange(run, first.at) });
}

/**
 * A run judge applied to every run of the case: a failure in any run fails (each message
 * prefixed with its scenario when there are several); otherwise a run that shows the rule
 * passes it, counting what every passing run judged; otherwise the first not-applicable;
 * otherwise the first run blocked by a rule it rests on; otherwise no run could judge, with every
 * reason. A run without any request is never judged.
 */
export function acrossRuns(judge: RunJudge): ClientJudge {
  return (evidence) => {
    const many = evidence.runs.length > 1;
    const prefix = (run: ScenarioRun): string => (many ? `${run.scenario} scenario: ` : '');
    const verdicts = evidence.runs.map((run) => {
      const quiet = silence(run);
      return { run, v: quiet ? unjudged(quiet) : judge(run, evidence) };
    });
    const failed = verdicts.filter((x): x is { run: ScenarioRun; v: Extract<Verdict, { ok: false }> } => 'ok' in x.v && !x.v.ok);
    const firstFailed = failed[0];
    if (firstFailed) {
      const message = failed.map(({ run, v }) => `${prefix(run)}${v.message}`).join('; ');
      return { ...firstFailed.v, message };
    }
    const passed = verdicts.flatMap(({ v }) => ('ok' in v && v.ok ? [v.observed ?? 1] : []));
    if (passed.length) return { ok: true, observed: passed.reduce((a, b) => a + b, 0) };
    const moot = verdicts.find(({ v }) => 'notApplicable' in v);
    if (moot) return moot.v;
    const blocked = verdicts.find(({ v }) => 'blockedBy' in v);
    if (blocked && 'blockedBy' in blocked.v) return { ...blocked.v, reason: `${prefix(blocked.run)}${blocked.v.reason}` };
    return unjudged(verdicts.map(({ run, v }) => `${prefix(run)}${'unjudged' in v ? v.unjudged : ''}`).join('; '));
  };
}

/**
 * A verdict that is not a pass says when a client had to be stopped: it was judged on what it
 * sent before its budget ran out.
 */
export function notingStops(v: ClientVerdict, runs: readonly ScenarioRun[]): ClientVerdict {
  if ('ok' in v && v.ok) return v;
  const stopped = runs.filter((r) => r.end.stopped);
  if (!stopped.length) return v;
  const note = ` (the client was stopped by the harness after ${(stopped[0]?.end.budgetMs ?? 0) / 1000} s in the ${stopped.map((r) => r.scenario).join(' and ')} scenario${stopped.length > 1 ? 's' : ''}, and judged on what it had sent)`;
  if ('notApplicable' in v) return v;
  if ('unjudged' in v) return unjudged(`${v.unjudged}${note}`);
  if ('blockedBy' in v) return { ...v, reason: `${v.reason}${note}` };
  return { ...v, message: `${v.message}${note}` };
}
