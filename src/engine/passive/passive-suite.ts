import { SpecgateError } from '../../errors.js';
import type { ApiTable } from '../api/table.js';
import type { Baseline } from '../baseline.js';
import type { EventBus } from '../events.js';
import type { CaseDef, CaseResult, Exchange, Failure, LoadedSuite, Selection, SuiteResult } from '../model.js';
import { selectionProperty } from '../selection.js';
import { sideProperty } from '../sides.js';
import { blockOnAssumptions, requirementVerdicts } from '../verdicts.js';
import { keepFailure } from '../runtime/failure-cap.js';
import type { Recording } from '../../targets/har/recording.js';
import { toExchange } from './recorded-observation.js';
import { judgeRecordedCase, type SchemaCheck } from './passive-case.js';
import { matchRecording, type MatchedExchange, type RecordingMatch } from './match-recording.js';
import { PASSIVE_JUDGES, bodyCutUnderSchema, lacksCredentials, missingHeaders } from './passive-judges.js';
import { judgePassiveRules, passiveView, type PassiveRule } from './passive-rules.js';
import { passivePlan } from './passive-plan.js';

/** Why a case is not judged from a recording: it has to send requests of its own. */
export const NEEDS_LIVE = 'passive target: needs live requests';

/** Exchanges kept on a case result (the failing ones first), as for live cases. */
const KEEP_EXCHANGES = 4;
/** Unmatched exchanges named one by one in the run's warning; the rest are counted. */
const LIST_UNMATCHED = 10;

/**
 * Judges a suite from recorded traffic instead of running its steps. Each case whose steps are
 * all `api.*` verifiers that can judge one exchange is judged on every recorded exchange of its
 * operation; a case that opted in (`passive: judge`) is judged on every recorded sequence that
 * stands for its requests (passive-case.ts); any other case, or one whose requests the recording
 * never holds, is skipped with the reason (its requirements stay untested). The suite's passive
 * rules (`rules`) each judge the whole recording as a case of their own. Exchanges that fit no
 * operation are reported, not failed.
 */
export function runPassiveSuite(suite: LoadedSuite & { api: ApiTable }, cases: CaseDef[], recording: Recording, label: string, bus: EventBus, baseline: Baseline, sides?: readonly string[], selection?: Selection, rules: Readonly<Record<string, PassiveRule>> = {}, schema?: SchemaCheck): SuiteResult {
  const started = performance.now();
  const match = matchRecording(suite.api, recording);
  bus.emit({ type: 'suite-start', suite: suite.name, target: label, requirements: suite.requirements, cases: cases.map((c) => ({ id: c.id, requirements: c.requirements })) });
  // judged first, told after: a case's failures may be consequences of a rule it assumes (blocked)
  // the suite's rules over the whole recording judge what no single exchange shows (SuiteModule.passiveRules)
  const ruled = judgePassiveRules(suite, rules, passiveView(suite.api, recording, match), (x) => toExchange(x, suite.api), sides, selection);
  const results = blockOnAssumptions([...cases.map((def) => (def.passive === 'judge' && !def.skip ? judgeRecordedCase(suite, def, match, schema) : judgeCase(suite, def, match))), ...ruled]);
  for (const result of results) {
    bus.emit({ type: 'case-start', suite: suite.name, caseId: result.id });
    const status = baseline.caseStatus(suite.name, result);
    if (status) result.baseline = status;
    for (const failure of result.failures) bus.emit({ type: 'failure', suite: suite.name, caseId: result.id, failure });
    bus.emit({ type: 'case-finish', suite: suite.name, result });
  }
  // an entry the file could not give is that entry's problem: the rest of the recording is judged
  if (recording.problems.length) {
    const left = recording.problems.filter((p) => p.index !== undefined).length;
    bus.emit({ type: 'log', level: 'warn', message: `${recording.file}: ${left} of ${recording.entries} recorded entr${recording.entries === 1 ? 'y was' : 'ies were'} left out${left < recording.problems.length ? ' and the file has a problem after its entries' : ''}: ${listed(recording.problems.map((p) => p.message))}` });
  }
  if (match.unmatched.length) {
    const named = match.unmatched.slice(0, LIST_UNMATCHED).map((u) => `entry ${u.recorded.index} ${u.recorded.method} ${u.recorded.url} (${u.why})`);
    const more = match.unmatched.length - named.length;
    bus.emit({ type: 'log', level: 'warn', message: `${recording.file}: ${match.unmatched.length} recorded exchange(s) fit no operation of suite ${suite.name} and were not judged: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}` });
  }
  const matchedList = [...match.byOperation.values()].flat();
  // the suite judges the answers; a request that breaks the table is worth knowing, not a failure of the target
  const malformed = matchedList
    .map((x) => ({ x, missing: [...(lacksCredentials(x, suite.api) && suite.api.auth ? [suite.api.auth.header] : []), ...missingHeaders(x)] }))
    .filter((m) => m.missing.length)
    .map(({ x, missing }) => `entry ${x.recorded.index} ${x.operation.id} lacks ${missing.join(', ')}`);
  const cut = matchedList.filter(bodyCutUnderSchema).map((x) => `entry ${x.recorded.index} ${x.operation.id} (${x.recorded.responseCut?.size} bytes)`);
  if (cut.length)
    bus.emit({ type: 'log', level: 'warn', message: `${recording.file}: ${cut.length} recorded answer(s) have a body over the recording's body cap, kept cut: their bodies are not judged against their schemas: ${listed(cut)}` });
  const requestsCut = requestBodiesCut(recording, match);
  if (requestsCut.length)
    bus.emit({ type: 'log', level: 'warn', message: `${recording.file}: ${requestsCut.length} recorded request(s) have a body over the recording's body cap, kept cut: their bodies are not judged against schemas, and no request step of a case stands on them: ${listed(requestsCut)}` });
  if (malformed.length)
    bus.emit({ type: 'log', level: 'warn', message: `${recording.file}: ${malformed.length} recorded request(s) lack headers their operation requires (api.served and api.schema do not judge them; api.authRequired judges those without credentials): ${malformed.slice(0, LIST_UNMATCHED).join('; ')}${malformed.length > LIST_UNMATCHED ? `; and ${malformed.length - LIST_UNMATCHED} more` : ''}` });
  const result: SuiteResult = {
    name: suite.name,
    target: label,
    cases: results,
    requirements: requirementVerdicts(suite, results, baseline, sides, selection),
    durationMs: performance.now() - started,
    ...(sides ? { sides: [...sides] } : {}),
    ...(selection ? { selection } : {}),
    properties: {
      target: label,
      ...sideProperty(sides),
      ...selectionProperty(selection),
      mode: 'passive',
      recording: recording.file,
      exchanges: String(recording.exchanges.length),
      ...(recording.problems.length ? { entriesLeftOut: recording.problems.map((p) => p.message).join('\n') } : {}),
      ...(cut.length ? { bodiesCut: cut.join('\n') } : {}),
      ...(requestsCut.length ? { requestBodiesCut: requestsCut.join('\n') } : {}),
      matched: String(matchedList.length),
      ...(malformed.length ? { requestsLackingHeaders: malformed.join('\n') } : {}),
      ...(match.unmatched.length ? { unmatched: match.unmatched.map((u) => `entry ${u.recorded.index} ${u.recorded.method} ${u.recorded.url}: ${u.why}`).join('\n') } : {}),
    },
  };
  bus.emit({ type: 'suite-finish', suite: suite.name, result });
  return result;
}

/** Each recorded request whose body was kept cut: its entry, its operation (or method and URL when it fits none) and its whole size. */
function requestBodiesCut(recording: Recording, match: RecordingMatch): string[] {
  const operation = new Map<number, string>();
  for (const xs of match.byOperation.values()) for (const x of xs) operation.set(x.recorded.index, x.operation.id);
  return recording.exchanges.filter((r) => r.requestCut !== undefined).map((r) => `entry ${r.index} ${operation.get(r.index) ?? `${r.method} ${r.url}`} (${r.requestCut} bytes)`);
}

/** The first items of a list named one by one, the rest counted. */
function listed(items: readonly string[]): string {
  const more = items.length - LIST_UNMATCHED;
  return `${items.slice(0, LIST_UNMATCHED).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** One case judged from the recording. */
function judgeCase(suite: LoadedSuite & { api: ApiTable }, def: CaseDef, match: RecordingMatch): CaseResult {
  const base = { suite: suite.name, id: def.id, requirements: def.requirements, failures: [] as Failure[], exchanges: [] as Exchange[], durationMs: 0, location: def.location, ...(def.description ? { description: def.description } : {}), ...(def.assumes ? { assumes: def.assumes } : {}) };
  if (def.skip) return { ...base, outcome: 'skipped', reason: def.skip };
  const plan = passivePlan(def);
  if (!plan) return { ...base, outcome: 'skipped', reason: NEEDS_LIVE };
  const failures: Failure[] = [];
  const failing: Exchange[] = [];
  const seen: Exchange[] = [];
  const unjudged: string[] = [];
  const evidence: Record<string, number> = {};
  for (const step of plan) {
    const judge = PASSIVE_JUDGES[step.verifier] as (typeof PASSIVE_JUDGES)[string];
    const xs = match.byOperation.get(step.operation) ?? [];
    let judged = 0;
    for (const x of xs) {
      const j = judge.judge(x, suite.api);
      if (!j.judged) continue;
      judged++;
      const exchange = toExchange(x, suite.api);
      if (seen.length < KEEP_EXCHANGES) seen.push(exchange);
      if (j.findings.length && failing.length < KEEP_EXCHANGES) failing.push(exchange);
      for (const f of j.findings)
        for (const requirement of step.requirement ? [step.requirement] : def.requirements)
          keepFailure(failures, { requirement, message: `${x.recorded.method} ${x.recorded.url} (entry ${x.recorded.index}): ${f.message}`, ...(f.expected !== undefined ? { expected: f.expected } : {}), ...(f.actual !== undefined ? { actual: f.actual } : {}), exchange });
    }
    if (judged === 0) unjudged.push(`the recording has no ${judge.evidence} of operation ${step.operation}`);
    // each recorded exchange a step judged is an observation of what it judges
    for (const requirement of step.requirement ? [step.requirement] : def.requirements) evidence[requirement] = (evidence[requirement] ?? 0) + judged;
  }
  const exchanges = failures.length ? failing : seen;
  // a requirement some step could not judge must stay untested: a skipped case never passes one,
  // while the failures other steps found still count against theirs
  if (unjudged.length) return { ...base, outcome: 'skipped', reason: `passive target: ${unjudged.join('; ')}`, failures, exchanges };
  return { ...base, outcome: failures.length ? 'failed' : 'passed', failures, exchanges: failures.length ? exchanges : [], evidence };
}


/** The suite's API table, which passive mode matches recorded traffic against; SG_CONFIG without one. */
export function passiveTable(suite: LoadedSuite): LoadedSuite & { api: ApiTable } {
  if (!suite.api)
    throw new SpecgateError('SG_CONFIG', `suite ${suite.name} describes no HTTP API (api.yaml), so recorded traffic cannot be matched to its operations: run it against a live target instead of --target har:`);
  return suite as LoadedSuite & { api: ApiTable };
}
