/**
 * `run --shard k/n`: which of the selected cases this machine runs. The split depends only on
 * the case keys `<suite>/<case-id>` (and, with `--shard-timings`, on the durations in that file),
 * so every machine of a CI matrix computes the same split without talking to the others.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SpecgateError } from '../src/errors.js';
import type { CaseDef, ShardInfo } from '../src/engine/model.js';
import type { SelectedCases } from '../src/engine/run.js';
import { isTimeBound } from '../src/engine/runtime/case-run.js';
import { exclusiveGroup, isExclusive } from '../src/engine/exclusive-group.js';
import { DEFAULT_CONCURRENCY } from '../src/engine/run-defaults.js';
import { parseJsonLossless } from '../src/targets/body-parse.js';

/** `--shard k/n`: shard `index` (1-based) of `total`. */
export interface ShardSpec {
  index: number;
  total: number;
}

/**
 * Parses `k/n` with 1 ≤ k ≤ n.
 * @throws SpecgateError `SG_USAGE` for anything else.
 */
export function parseShard(value: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || index < 1 || index > total) {
    throw new SpecgateError('SG_USAGE', `--shard takes k/n with 1 <= k <= n (e.g. --shard 2/3 for the second of three shards), not "${value}"`);
  }
  return { index, total };
}

/** The shard (1-based) a case key falls in without timings: a hash, so adding a case moves no other. */
export function hashShard(key: string, total: number): number {
  return (createHash('sha256').update(key, 'utf8').digest().readUInt32BE(0) % total) + 1;
}

/** Case durations in ms by `<suite>/<case-id>`, from an earlier results.json. */
export type Timings = ReadonlyMap<string, number>;

/**
 * Reads the per-case durations of an earlier run's JSON report (a merged one covers every case).
 * @throws SpecgateError `SG_CONFIG` when the file is missing or is not a specgate JSON report.
 */
export function readTimings(file: string): Timings {
  let data: unknown;
  try {
    data = parseJsonLossless(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SpecgateError('SG_CONFIG', `--shard-timings ${file}: cannot read it as JSON (${e instanceof Error ? e.message : String(e)}); give the results.json of an earlier run (--report json=...)`);
  }
  const suites = (data as { suites?: unknown }).suites;
  if (!Array.isArray(suites)) throw new SpecgateError('SG_CONFIG', `--shard-timings ${file}: not a specgate JSON report (no "suites" list); give the results.json of an earlier run`);
  const out = new Map<string, number>();
  for (const s of suites as { name?: unknown; cases?: unknown }[]) {
    if (typeof s.name !== 'string' || !Array.isArray(s.cases)) continue;
    for (const c of s.cases as { id?: unknown; durationMs?: unknown }[]) {
      if (typeof c.id === 'string' && typeof c.durationMs === 'number' && Number.isFinite(c.durationMs)) out.set(`${s.name}/${c.id}`, Math.max(0, c.durationMs));
    }
  }
  return out;
}

/** What {@link planShard} decided, for the line the CLI prints. */
export interface ShardPlan {
  /** Shard (1-based) by case key. */
  assignment: Map<string, number>;
  /** How the split was made, in words. */
  method: string;
}

/**
 * A case that runs alone after the others costs its whole duration, and so does one of an
 * exclusive group (one at a time within its group, which may be all the groups there are); the
 * rest share the pool.
 */
function runsAlone(def: CaseDef): boolean {
  return isTimeBound(def) || isExclusive(def) || exclusiveGroup(def) !== undefined;
}

/**
 * Splits the selected cases over `total` shards. Without timings each case goes where its key
 * hashes. With timings the cases are placed greedily, longest first, each on the least-loaded
 * shard (ties: the lowest index); a case that runs alone counts its whole duration, one of the
 * concurrent pool its duration divided by the concurrency, and a case the file does not know
 * counts the median known duration.
 */
export function planShard(selected: readonly SelectedCases[], total: number, timings?: Timings, concurrency = DEFAULT_CONCURRENCY): ShardPlan {
  const keyed = selected.flatMap(({ suite, cases }) => cases.map((def) => ({ key: `${suite.name}/${def.id}`, def })));
  const assignment = new Map<string, number>();
  const known = timings ? keyed.map((k) => timings.get(k.key)).filter((d): d is number => d !== undefined) : [];
  if (!timings || known.length === 0) {
    for (const { key } of keyed) assignment.set(key, hashShard(key, total));
    return { assignment, method: timings ? 'by hash (the timing file names none of these cases)' : 'by hash' };
  }
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const cost = (k: { key: string; def: CaseDef }): number => {
    const d = timings.get(k.key) ?? median;
    return runsAlone(k.def) ? d : d / Math.max(1, concurrency);
  };
  const items = keyed.map((k) => ({ key: k.key, cost: cost(k) })).sort((a, b) => b.cost - a.cost || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const load = new Array<number>(total).fill(0);
  for (const item of items) {
    let best = 0;
    for (let i = 1; i < total; i++) if ((load[i] as number) < (load[best] as number)) best = i;
    load[best] = (load[best] as number) + item.cost;
    assignment.set(item.key, best + 1);
  }
  const unknown = keyed.length - known.length;
  return { assignment, method: `balanced by timings${unknown ? ` (${unknown} case(s) without one counted at the median, ${Math.round(median)} ms)` : ''}` };
}

/**
 * The shard hook `run` takes: keeps this shard's cases (in run order) and records every selected
 * case, so `merge` can check that the shards together cover the run once.
 */
export function shardSelector(spec: ShardSpec, opts: { timings?: Timings; concurrency?: number; log?: (line: string) => void } = {}): (selected: SelectedCases[]) => { selected: SelectedCases[]; info: ShardInfo } {
  return (selected) => {
    const plan = planShard(selected, spec.total, opts.timings, opts.concurrency);
    const mine = selected.map(({ suite, cases }) => ({ suite, cases: cases.filter((c) => plan.assignment.get(`${suite.name}/${c.id}`) === spec.index) }));
    const all = selected.reduce((n, s) => n + s.cases.length, 0);
    const count = mine.reduce((n, s) => n + s.cases.length, 0);
    opts.log?.(`shard ${spec.index}/${spec.total}: ${count} of ${all} case(s), split ${plan.method}; \`specgate merge\` of every shard's results.json gives the verdict`);
    const durations = knownDurations(selected, opts.timings);
    return {
      selected: mine,
      info: {
        index: spec.index,
        total: spec.total,
        selected: Object.fromEntries(selected.map(({ suite, cases }) => [suite.name, cases.map((c) => c.id)])),
        // what the split was balanced by, so `merge` can compute it again (none known: it was by hash)
        ...(durations ? { timings: { durations, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY } } : {}),
      },
    };
  };
}

/** The durations the timings give for the selected cases; undefined when they give none (the split is by hash). */
function knownDurations(selected: readonly SelectedCases[], timings: Timings | undefined): Record<string, number> | undefined {
  if (!timings) return undefined;
  const known = selected.flatMap(({ suite, cases }) => cases.flatMap((c): [string, number][] => {
    const key = `${suite.name}/${c.id}`;
    const d = timings.get(key);
    return d === undefined ? [] : [[key, d]];
  }));
  return known.length ? Object.fromEntries(known) : undefined;
}

/**
 * The shard (1-based) of every selected case of a sharded run, computed again from what a
 * shard's report recorded: its selection (as the installed suites define those cases), the
 * number of shards, and the timings it was balanced by. `merge` holds each part to it.
 */
export function recordedSplit(info: ShardInfo, selected: readonly SelectedCases[]): ReadonlyMap<string, number> {
  const timings = info.timings ? new Map(Object.entries(info.timings.durations)) : undefined;
  return planShard(selected, info.total, timings, info.timings?.concurrency).assignment;
}
