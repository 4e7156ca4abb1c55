/**
 * Reading a JSON report (json.ts) back into the engine's result shapes, so the runs of several
 * machines can be judged together (`specgate merge`). The report keeps every case result in
 * full; `null` fields go back to absent ones.
 */
import { readFileSync } from 'node:fs';
import { SpecgateError } from '../src/errors.js';
import type { CaseResult, Interruption, Level, Requirement, Selection, ShardInfo } from '../src/engine/model.js';
import { JSON_REPORT_FORMAT } from '../src/reporting/json.js';
import { parseJsonLossless } from '../src/targets/body-parse.js';
import type { TraceSummary } from '../src/engine/model.js';

/** One suite of a JSON report: its catalog and its case results as run (verdicts are recomputed). */
export interface ReadSuite {
  name: string;
  target: string;
  durationMs: number;
  error?: { code: string; message: string };
  /** The sides the run judged, when it judged only some (`--side`). */
  sides?: string[];
  /** The requirements the run selected, when it selected some (`--part`, `--requirement`). */
  selection?: Selection;
  properties: Record<string, string>;
  /** The version of the suite that judged it (a report that does not say: the specgate version that wrote it). */
  version: string;
  catalog: Requirement[];
  cases: CaseResult[];
  /** The suite's statement trace summed up, when its report has one. */
  trace?: TraceSummary;
}

/** A JSON report as read back. */
export interface ReadReport {
  file: string;
  version: string;
  startedAt: string;
  durationMs: number;
  seed: number;
  strict: boolean;
  stricter: boolean;
  suites: ReadSuite[];
  shard?: ShardInfo;
  /** The run was stopped early (its unfinished cases are skipped as interrupted). */
  interrupted?: Interruption;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);

/** Drops the keys whose value is `null` (the report writes absent optional fields as null). */
function present<T extends Json>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

function readCase(suite: string, c: Json): CaseResult {
  const optional = present({
    description: c['description'],
    reason: c['reason'],
    errorCode: c['errorCode'],
    property: c['property'],
    location: c['location'],
    baseline: c['baseline'],
    // what verdicts are recomputed from: what a case assumed, was blocked by, and judged on
    replay: c['replay'],
    assumes: c['assumes'],
    blockedBy: c['blockedBy'],
    blockedFailures: c['blockedFailures'],
    blocked: c['blocked'],
    evidence: c['evidence'],
    noEvidence: c['noEvidence'],
  });
  return {
    ...(optional as Partial<CaseResult>),
    suite,
    id: text(c['id']),
    requirements: list(c['requirements']).map((r) => text(r)),
    outcome: text(c['outcome']) as CaseResult['outcome'],
    ...(c['notApplicable'] === true ? { notApplicable: true } : {}),
    ...(c['seeded'] === true ? { seeded: true as const } : {}),
    failures: list(c['failures']) as CaseResult['failures'],
    exchanges: list(c['exchanges']) as CaseResult['exchanges'],
    durationMs: num(c['durationMs']),
  };
}

function readRequirement(r: Json): Requirement {
  return {
    id: text(r['id']),
    level: text(r['level'], 'MUST') as Level,
    source: text(r['source']),
    text: text(r['text']),
    ...(typeof r['side'] === 'string' ? { side: r['side'] } : {}),
    // The catalog's exclusion reason is the verdict's reason for an excluded requirement.
    ...(r['status'] === 'excluded' ? { excluded: text(r['reason'], 'excluded') } : {}),
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/**
 * A shard's `shard` as `run --shard` writes it: 1 <= index <= total, the selection as case IDs
 * per suite, and, when it was balanced by timings, finite durations and a concurrency.
 * @throws SpecgateError `SG_CONFIG` for anything else: the coverage checks of `merge` rest on it.
 */
function readShard(v: unknown, file: string): ShardInfo {
  const bad = (what: string): SpecgateError =>
    new SpecgateError('SG_CONFIG', `${file}: its "shard" ${what}, which no \`specgate run --shard\` writes; give the results.json each shard wrote, unchanged`);
  if (!isObject(v)) throw bad('is not an object');
  const { index, total, selected, timings } = v;
  if (!isCount(index) || !isCount(total) || index > total) throw bad(`is ${String(index)}/${String(total)}, not k/n with 1 <= k <= n`);
  if (!isObject(selected) || !Object.values(selected).every((ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) throw bad('has no selection of case IDs per suite');
  const info: ShardInfo = { index, total, selected: selected as Record<string, string[]> };
  if (timings === undefined) return info;
  const durations = isObject(timings) && isObject(timings['durations']) ? timings['durations'] : undefined;
  const concurrency = isObject(timings) ? timings['concurrency'] : undefined;
  if (!durations || !isCount(concurrency) || !Object.values(durations).every((d) => typeof d === 'number' && Number.isFinite(d) && d >= 0)) throw bad('has timings that are not durations and a concurrency');
  return { ...info, timings: { durations: durations as Record<string, number>, concurrency } };
}

/**
 * Parses the text of a JSON report.
 * @throws SpecgateError `SG_CONFIG` when it is not a specgate JSON report of a format this version reads.
 */
export function parseJsonReport(content: string, file: string): ReadReport {
  let data: unknown;
  try {
    data = parseJsonLossless(content, 'the report');
  } catch (e) {
    throw new SpecgateError('SG_CONFIG', `${file}: not JSON (${e instanceof Error ? e.message : String(e)}); give the results.json a run wrote (--report json=...)`);
  }
  const head = isObject(data) && isObject(data['specgate']) ? data['specgate'] : undefined;
  if (!isObject(data) || !head || !Array.isArray(data['suites']) || !Array.isArray(data['requirements'])) {
    throw new SpecgateError('SG_CONFIG', `${file}: not a specgate JSON report (it needs "specgate", "requirements" and "suites"); give the results.json a run wrote (--report json=...)`);
  }
  if (num(head['format']) !== JSON_REPORT_FORMAT) {
    throw new SpecgateError('SG_CONFIG', `${file}: JSON report format ${String(head['format'])}, but this specgate reads format ${JSON_REPORT_FORMAT}; merge reports written by the same specgate version`);
  }
  const requirements = list(data['requirements']).filter(isObject);
  const version = text(head['version'], 'unknown');
  const suites = list(data['suites'])
    .filter(isObject)
    .map((s): ReadSuite => {
      const name = text(s['name']);
      const error = isObject(s['error']) ? { code: text(s['error']['code']), message: text(s['error']['message']) } : undefined;
      const sides = Array.isArray(s['sides']) ? s['sides'].map((x) => text(x)) : undefined;
      const selection = readSelection(s['selection']);
      const trace = readTrace(s['trace']);
      return {
        name,
        target: text(s['target']),
        durationMs: num(s['durationMs']),
        ...(error ? { error } : {}),
        ...(sides ? { sides } : {}),
        ...(selection ? { selection } : {}),
        properties: (isObject(s['properties']) ? s['properties'] : {}) as Record<string, string>,
        version: text(s['version'], version),
        catalog: requirements.filter((r) => r['suite'] === name).map(readRequirement),
        cases: list(s['cases']).filter(isObject).map((c) => readCase(name, c)),
        ...(trace ? { trace } : {}),
      };
    });
  const shard = data['shard'] === undefined ? undefined : readShard(data['shard'], file);
  const stopped = isObject(data['interrupted']) ? data['interrupted'] : undefined;
  const interrupted: Interruption | undefined = stopped ? { signal: stopped['signal'] === 'SIGTERM' ? 'SIGTERM' : 'SIGINT' } : undefined;
  return {
    file,
    version,
    startedAt: text(data['startedAt']),
    durationMs: num(data['durationMs']),
    seed: num(data['seed']),
    strict: data['strict'] === true,
    stricter: data['stricter'] === true,
    suites,
    ...(shard ? { shard } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
}

/** A suite's `selection` as written (absent or null: the run selected every requirement). */
function readSelection(v: unknown): Selection | undefined {
  if (!isObject(v) || !Array.isArray(v['requirements'])) return undefined;
  return { label: text(v['label']), requirements: v['requirements'].map((x) => text(x)) };
}

/** Reads and parses a JSON report file (see {@link parseJsonReport}). */
export function readJsonReport(file: string): ReadReport {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SpecgateError('SG_CONFIG', `cannot read ${file} (${e instanceof Error ? e.message : String(e)}); give the results.json each shard wrote`);
  }
  return parseJsonReport(content, file);
}

/** A report's statement trace, when it has one of the shape specgate writes (another shape is left out, not guessed at). */
function readTrace(v: unknown): TraceSummary | undefined {
  if (!isObject(v) || typeof v['document'] !== 'string' || !Array.isArray(v['interfaces']) || !Array.isArray(v['sections'])) return undefined;
  return v as unknown as TraceSummary;
}
