/**
 * Putting the results of several runs back together before they are judged as one: the shards
 * of a `run --shard k/n` must all be there, agree on what the whole run selected, and cover
 * each selected case exactly once; results of unsharded runs may be merged when no case appears
 * twice (say, one suite per machine).
 */
import { SpecgateError } from '../src/errors.js';
import type { LoadedSuite, Requirement, Selection } from '../src/engine/model.js';
import type { SelectedCases } from '../src/engine/run.js';
import type { ReadReport, ReadSuite } from './results-file.js';
import { recordedSplit } from './shard.js';

/** One suite of the merged run: its catalog and every case result, in run order (a suite as a report holds it). */
export type MergedSuite = ReadSuite;

/**
 * Checks that the reports form one run and returns its suites in run order.
 * @throws SpecgateError `SG_USAGE` for a missing, repeated or foreign shard, shards that
 *   selected different cases, or a case found in two reports.
 */
export function mergeSuites(reports: readonly ReadReport[]): MergedSuite[] {
  if (reports.length === 0) throw new SpecgateError('SG_USAGE', 'merge needs at least one results.json (e.g. specgate merge shard-*/results.json)');
  const sharded = reports.filter((r) => r.shard);
  if (sharded.length && sharded.length < reports.length) {
    const plain = reports.find((r) => !r.shard) as ReadReport;
    throw new SpecgateError('SG_USAGE', `${plain.file} is not a shard's report, but ${(sharded[0] as ReadReport).file} is: merge the reports of one sharded run, or only unsharded ones`);
  }
  const order = sharded.length ? checkShards(reports) : undefined;
  const byName = new Map<string, { suite: ReadSuite; file: string }[]>();
  for (const r of reports)
    for (const s of r.suites) {
      const parts = byName.get(s.name) ?? [];
      parts.push({ suite: s, file: r.file });
      byName.set(s.name, parts);
    }
  const names = order ? Object.keys(order).filter((n) => byName.has(n)) : [...byName.keys()];
  return names.map((name) => {
    const parts = byName.get(name) ?? [];
    const seen = new Map<string, string>();
    for (const { suite, file } of parts)
      for (const c of suite.cases) {
        const before = seen.get(c.id);
        if (before !== undefined) throw new SpecgateError('SG_USAGE', `case ${name}/${c.id} is in both ${before} and ${file}: merge each run's results once, and shards of one run only`);
        seen.set(c.id, file);
      }
    const cases = parts.flatMap((p) => p.suite.cases);
    const wanted = order?.[name];
    if (wanted) {
      const missing = wanted.filter((id) => !seen.has(id));
      if (missing.length) throw new SpecgateError('SG_USAGE', `the shards' reports lack ${missing.length} selected case(s) of suite ${name} (first: ${missing[0] ?? ''}): give every shard's results.json of this run`);
      const rank = new Map(wanted.map((id, i) => [id, i]));
      const extra = cases.find((c) => !rank.has(c.id));
      if (extra) throw new SpecgateError('SG_USAGE', `case ${name}/${extra.id} is in a shard's report but not in what the run selected: merge the shards of one run`);
      cases.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    }
    const suites = parts.map((p) => p.suite);
    const first = suites[0] as ReadSuite;
    const error = suites.find((p) => p.error)?.error;
    const catalog = suites.find((p) => p.catalog.length)?.catalog ?? [];
    const sides = judgedSides(suites, catalog);
    const selection = joinedSelection(suites);
    const { side: _side, selection: _selection, ...properties } = first.properties;
    return {
      name,
      target: first.target,
      durationMs: Math.max(...suites.map((p) => p.durationMs)),
      ...(error ? { error } : {}),
      ...(sides ? { sides } : {}),
      ...(selection ? { selection } : {}),
      properties: { ...properties, ...(sides ? { side: sides.join(',') } : {}), ...(selection ? { selection: selection.label } : {}) },
      version: first.version,
      catalog,
      cases,
      ...(first.trace ? { trace: first.trace } : {}),
    };
  });
}

/**
 * The sides the parts of a suite judged together: a run of the server side merged with one of
 * the client side judges both. Undefined when some part judged every side, or the parts
 * together cover every side the catalog names.
 */
function judgedSides(parts: readonly ReadSuite[], catalog: readonly Requirement[]): string[] | undefined {
  if (parts.some((p) => !p.sides)) return undefined;
  const judged = [...new Set(parts.flatMap((p) => p.sides ?? []))];
  const all = new Set(catalog.flatMap((r) => (r.side !== undefined ? [r.side] : [])));
  return [...all].every((s) => judged.includes(s)) ? undefined : judged;
}

/**
 * The requirements the parts of a suite selected together: the shards of one run share one
 * selection; runs of two parts merged judge both. Undefined when some part selected every
 * requirement.
 */
function joinedSelection(parts: readonly ReadSuite[]): Selection | undefined {
  if (parts.some((p) => !p.selection)) return undefined;
  const selections = parts.map((p) => p.selection as Selection);
  return {
    label: [...new Set(selections.map((x) => x.label))].join('; '),
    requirements: [...new Set(selections.flatMap((x) => x.requirements))],
  };
}

/** Every shard 1..n present once, all of the same split: returns what the whole run selected. */
function checkShards(reports: readonly ReadReport[]): Record<string, string[]> {
  const first = reports[0] as ReadReport & { shard: NonNullable<ReadReport['shard']> };
  const total = first.shard.total;
  const seen = new Map<number, string>();
  const selection = JSON.stringify(first.shard.selected);
  const timings = JSON.stringify(first.shard.timings ?? null);
  for (const r of reports) {
    const shard = r.shard as NonNullable<ReadReport['shard']>;
    if (shard.total !== total) throw new SpecgateError('SG_USAGE', `${r.file} is shard ${shard.index}/${shard.total}, but ${first.file} is one of ${total}: merge the shards of one run`);
    const before = seen.get(shard.index);
    if (before !== undefined) throw new SpecgateError('SG_USAGE', `${before} and ${r.file} are both shard ${shard.index}/${total}: give each shard's results.json once`);
    seen.set(shard.index, r.file);
    if (JSON.stringify(shard.selected) !== selection) {
      throw new SpecgateError('SG_USAGE', `${r.file} and ${first.file} split different selections of cases: run every shard with the same suites, --case, --suite-module and specgate version`);
    }
    if (JSON.stringify(shard.timings ?? null) !== timings) {
      throw new SpecgateError('SG_USAGE', `${r.file} and ${first.file} were split by different timings: run every shard with the same --shard-timings file and --concurrency`);
    }
  }
  const missing = Array.from({ length: total }, (_x, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new SpecgateError('SG_USAGE', `shard ${missing.map((i) => `${i}/${total}`).join(', ')} missing: give every shard's results.json (a shard that stopped early wrote none; rerun it)`);
  return first.shard.selected;
}

/**
 * Holds each shard's report to the split `run --shard` makes of the recorded selection: a report
 * relabelled with another index or number of shards, or holding a case of another shard, is
 * refused. The split is computed from the installed suites' cases (a time-bound or `exclusive`
 * case weighs its whole duration when balanced by timings).
 * @throws SpecgateError `SG_USAGE` naming the report and a case that is not its shard's.
 */
export function checkShardSplit(reports: readonly ReadReport[], installed: ReadonlyMap<string, LoadedSuite>): void {
  const info = reports[0]?.shard;
  if (!info) return;
  const selected = Object.entries(info.selected).map(([name, ids]): SelectedCases => {
    const suite = installed.get(name);
    if (!suite) throw new SpecgateError('SG_USAGE', `${(reports[0] as ReadReport).file}: its shard selection names suite ${name}, which this specgate does not have: give the --suite-module the shards ran with`);
    const byId = new Map(suite.cases.map((c) => [c.id, c]));
    return { suite, cases: ids.flatMap((id) => byId.get(id) ?? []) };
  });
  const split = recordedSplit(info, selected);
  for (const r of reports) {
    const index = r.shard?.index;
    for (const s of r.suites)
      for (const c of s.cases) {
        const key = `${s.name}/${c.id}`;
        const belongs = split.get(key);
        if (belongs !== index) {
          throw new SpecgateError('SG_USAGE', `${r.file} says it is shard ${String(index)}/${info.total}, but its case ${key} falls in shard ${String(belongs)}/${info.total} of that run's split: merge the reports as each shard wrote them`);
        }
      }
  }
}
