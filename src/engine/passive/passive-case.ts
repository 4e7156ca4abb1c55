import type { SchemaVerdict } from '../../checks/matchers.js';
import type { ApiTable } from '../api/table.js';
import { resolveDeep } from '../expressions.js';
import type { BlockedBy, CaseDef, CaseResult, Exchange, Failure, HttpExpect, LoadedSuite } from '../model.js';
import { eachTally, evidenceOf } from '../runtime/evidence.js';
import { keepFailure } from '../runtime/failure-cap.js';
import { expectationMismatches, mismatchText } from '../runtime/observation.js';
import type { MatchedExchange, RecordingMatch } from './match-recording.js';
import { PASSIVE_JUDGES } from './passive-judges.js';
import { recordedObservation, toExchange } from './recorded-observation.js';
import { casePatterns, type RequestPattern, type StepPattern } from './request-pattern.js';
import type { InterleavedWrite } from './interleaved-writes.js';
import { anyFits, cutStandIns, findSequences, type MatchedSequence, type WriteGuard } from './sequence-match.js';
import type { Bindings } from './value-pattern.js';

/** Exchanges kept on a case result (the failing ones first), as for live cases. */
const KEEP_EXCHANGES = 4;

/** Validates a body against a registered schema (the registry's), for `schema:` and `$schema` expectations. */
export type SchemaCheck = (name: string, value: unknown) => SchemaVerdict;

/**
 * Judges a case that opted in (`passive: judge`) on a recording: every sequence of recorded
 * exchanges that stands for its requests (sequence-match.ts) is judged as a run of the case
 * would judge its answers — each step's `expect:` by the engine's own expectation code, an
 * `api.*` step by its passive judge — with failures naming the recorded entry and evidence per
 * requirement. With no sequence, the case is skipped with what the recording lacks.
 */
export function judgeRecordedCase(suite: LoadedSuite & { api: ApiTable }, def: CaseDef, match: RecordingMatch, schema: SchemaCheck | undefined): CaseResult {
  const base = { suite: suite.name, id: def.id, requirements: def.requirements, failures: [] as Failure[], exchanges: [] as Exchange[], durationMs: 0, location: def.location, ...(def.description ? { description: def.description } : {}), ...(def.assumes ? { assumes: def.assumes } : {}) };
  const { patterns, problems } = casePatterns(def, suite.api);
  if (problems.length) return { ...base, outcome: 'skipped', reason: `passive target: ${problems.map((p) => p.message).join('; ')}` };
  const candidates = (op: string): readonly MatchedExchange[] => match.byOperation.get(op) ?? [];
  const initial = caseBindings(def, patterns);
  const guard: WriteGuard = { recorded: match.recorded };
  const sequences = findSequences(patterns, candidates, initial, guard);
  if (!sequences.length) return { ...base, outcome: 'skipped', reason: `passive target: ${guard.rejected ? interleavedReason(guard.rejected) : lacking(patterns.filter((p): p is RequestPattern => p.kind === 'request'), candidates, initial)}` };
  const failures: Failure[] = [];
  const failing: Exchange[] = [];
  const evidence: Record<string, number> = {};
  const noEvidence: Record<string, string> = {};
  const unreadable: string[] = [];
  let blockedBy: BlockedBy | undefined;
  let judgedSequences = 0;
  const observe = (requirements: string[], n: number, none?: string): void => {
    for (const id of requirements) {
      evidence[id] = (evidence[id] ?? 0) + n;
      if (n === 0 && none !== undefined) noEvidence[id] ??= none;
    }
  };
  for (const seq of sequences) {
    const outcome = judgeSequence(suite.api, def, patterns.filter((p): p is RequestPattern => p.kind === 'request'), seq, schema);
    if ('unreadable' in outcome) {
      unreadable.push(outcome.unreadable);
      continue;
    }
    for (const f of outcome.failures) {
      if (failing.length < KEEP_EXCHANGES && f.exchange && !failing.includes(f.exchange)) failing.push(f.exchange);
      keepFailure(failures, f);
    }
    for (const o of outcome.observed) observe(o.requirements, o.count, o.none);
    if (outcome.blocked) blockedBy ??= outcome.blocked;
    else judgedSequences++;
  }
  if (!judgedSequences && !failures.length) {
    if (blockedBy) return { ...base, outcome: 'skipped', reason: `blocked by ${blockedBy.requirement}: ${blockedBy.message}`, blockedBy };
    return { ...base, outcome: 'skipped', reason: `passive target: ${[...new Set(unreadable)].join('; ')}` };
  }
  for (const id of def.requirements) if (evidence[id] === undefined) noEvidence[id] ??= 'passive target: no recorded exchange judged it';
  const seen = [...sequences[0]?.exchanges.values() ?? []].slice(0, KEEP_EXCHANGES).map((x) => toExchange(x, suite.api));
  return {
    ...base,
    outcome: failures.length ? 'failed' : 'passed',
    failures,
    exchanges: failures.length ? failing : seen,
    evidence,
    ...(Object.keys(noEvidence).length ? { noEvidence } : {}),
  };
}

interface Observed {
  requirements: string[];
  count: number;
  none?: string;
}

type SequenceOutcome = { unreadable: string } | { failures: Failure[]; observed: Observed[]; blocked?: BlockedBy };

/** One sequence judged, step by step, as a run of the case would judge the answers it got. */
function judgeSequence(table: ApiTable, def: CaseDef, patterns: readonly RequestPattern[], seq: MatchedSequence, schema: SchemaCheck | undefined): SequenceOutcome {
  const failures: Failure[] = [];
  const observed: Observed[] = [];
  const owners = (requirement: string | undefined): string[] => (requirement ? [requirement] : def.requirements);
  for (const p of patterns) {
    const x = seq.exchanges.get(p.step) as MatchedExchange;
    const vars = seq.varsAt.get(p.step) as Bindings;
    const exchange = toExchange(x, table);
    const where = `${x.recorded.method} ${x.recorded.url} (entry ${x.recorded.index}, step ${p.step + 1})`;
    if (p.verifier !== undefined) {
      const step = def.steps[p.step] as { with?: Record<string, unknown> };
      const requirement = typeof step.with?.['requirement'] === 'string' ? step.with['requirement'] : undefined;
      const j = (PASSIVE_JUDGES[p.verifier] as (typeof PASSIVE_JUDGES)[string]).judge(x, table);
      if (!j.judged) continue;
      for (const f of j.findings)
        for (const r of owners(requirement)) failures.push({ requirement: r, message: `${where}: ${f.message}`, ...(f.expected !== undefined ? { expected: f.expected } : {}), ...(f.actual !== undefined ? { actual: f.actual } : {}), exchange });
      observed.push({ requirements: owners(requirement), count: 1 });
      continue;
    }
    const step = def.steps[p.step] as { expect?: HttpExpect; precondition?: string };
    if (!step.expect) continue;
    let expect: HttpExpect;
    try {
      expect = resolveDeep(step.expect, { vars: { ...vars } }) as HttpExpect;
    } catch (e) {
      // an expectation on a value of the target profile the requests never showed
      return { unreadable: `step ${p.step + 1}'s expectation cannot be read from the recording (${(e as Error).message})` };
    }
    const tally = eachTally();
    const obs = recordedObservation(x, table);
    const mismatches = expectationMismatches(obs, expect, { ...(schema ? { schema } : {}), redact: (t) => t, each: tally }, (n) => n);
    const owner = step.precondition;
    if (owner !== undefined) {
      const listed = def.requirements.includes(owner);
      if (mismatches.length) {
        if (listed) for (const m of mismatches) failures.push(failureOf(owner, where, m, exchange));
        return { failures, observed, blocked: { requirement: owner, message: `a step the case rests on did not hold: ${mismatches.map(mismatchText).join('; ')}`, exchange } };
      }
      if (listed) observed.push({ requirements: [owner], count: 1 });
      continue;
    }
    for (const m of mismatches) for (const r of owners(expect.requirement)) failures.push(failureOf(r, where, m, exchange));
    const found = evidenceOf(obs, expect, tally);
    observed.push('count' in found ? { requirements: owners(expect.requirement), count: found.count } : { requirements: owners(expect.requirement), count: 0, none: found.none });
  }
  return { failures, observed };
}

function failureOf(requirement: string, where: string, m: { path: string; message: string; expected?: unknown; actual?: unknown; detail?: unknown }, exchange: Exchange): Failure {
  return { requirement, message: `${where}: ${mismatchText(m as Parameters<typeof mismatchText>[0])}`, expected: m.expected, actual: m.actual === undefined ? '(absent)' : m.actual, ...(m.detail !== undefined ? { detail: m.detail } : {}), exchange };
}

/** What the recording lacks: the first request no exchange fits, or the order they must come in. */
function lacking(patterns: readonly RequestPattern[], candidates: (op: string) => readonly MatchedExchange[], initial: Bindings): string {
  const missing = patterns.find((p) => !anyFits(p, candidates(p.operation.id), initial));
  if (missing) {
    // a request that was recorded, but with its body cut, is not "not recorded": say which and why it cannot serve
    const cut = cutStandIns(missing, candidates(missing.operation.id), initial);
    if (cut.length) return `no ${missing.words} was recorded whole: the request body of ${cutEntries(cut)} was kept cut by the recording's body cap, and a cut body cannot show the fields the step sends`;
    return `no ${missing.words} was recorded`;
  }
  return `no sequence of ${patterns.map((p) => p.words).join(', then ')} with the same values throughout was recorded`;
}

/** `entry 3 (2000000 bytes)`, `entries 3 (…), 5 (…)`: the recorded requests kept cut, the first few. */
function cutEntries(cut: readonly MatchedExchange[]): string {
  const shown = cut.slice(0, 3).map((x) => `${x.recorded.index} (${x.recorded.requestCut} bytes)`);
  return `${cut.length > 1 ? 'entries' : 'entry'} ${shown.join(', ')}${cut.length > shown.length ? ` and ${cut.length - shown.length} more` : ''}`;
}

/** Why the sequences a recording holds do not stand for the case: another write on the item between their steps. */
function interleavedReason(w: InterleavedWrite): string {
  return `every recorded sequence of its requests has another write on the item it addresses between its steps (entry ${w.write.index} ${w.write.method} ${w.item} between entries ${w.between[0]} and ${w.between[1]}), so none stands for the case`;
}

/**
 * The variables known before a recording is read: the case's own `vars:`, except those its
 * requests carry. Those are values the live case chose for itself (a name, a topic); a recorded
 * client chose its own, and the expectations that read them are judged with what it sent, as
 * for the target profile's variables.
 */
function caseBindings(def: CaseDef, patterns: readonly StepPattern[]): Bindings {
  const carried = new Set(patterns.flatMap((p) => (p.kind === 'request' ? varNames([p.params, p.query, p.headers, p.json, p.form, p.raw]) : [])));
  return Object.fromEntries(Object.entries(def.vars ?? {}).filter(([k]) => !carried.has(k)));
}

/** Every variable a value's strings read (`${name}` and `${name.field}` -> name). */
function varNames(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\$\{\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
  if (Array.isArray(value)) return value.flatMap(varNames);
  if (value && typeof value === 'object') return Object.values(value).flatMap(varNames);
  return [];
}
