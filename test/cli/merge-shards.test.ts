import { describe, expect, it } from 'vitest';
import { judgeMerged } from '../../cli/merge-command.js';
import { checkShardSplit, mergeSuites } from '../../cli/merge-shards.js';
import { hashShard } from '../../cli/shard.js';
import { parseJsonReport, type ReadReport, type ReadSuite } from '../../cli/results-file.js';
import { Baseline } from '../../src/engine/baseline.js';
import { gatingOf } from '../../src/engine/verdicts.js';
import type { CaseResult, LoadedSuite, ShardInfo } from '../../src/engine/model.js';
import { renderJson } from '../../src/reporting/json.js';
import { makeRunResult } from '../fixtures/reporting/run-result.js';

const result = (suite: string, id: string): CaseResult => ({ suite, id, requirements: ['R-A'], outcome: 'passed', failures: [], exchanges: [], durationMs: 1 });
const suite = (name: string, ids: string[]): ReadSuite => ({ name, target: 't', durationMs: 5, properties: {}, version: '1', catalog: [{ id: 'R-A', level: 'MUST', source: 's#1', text: 'a' }], cases: ids.map((id) => result(name, id)) });
const selected = { s: ['one', 'two', 'three'] };
const shard = (index: number, ids: string[], total = 2, sel: Record<string, string[]> = selected): ReadReport => ({
  file: `shard-${index}.json`,
  version: '1',
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: index * 10,
  seed: 1,
  strict: false,
  stricter: false,
  suites: [suite('s', ids)],
  shard: { index, total, selected: sel },
});

describe('mergeSuites', () => {
  it('puts the shards\' cases back in the order the whole run selected them', () => {
    const [merged] = mergeSuites([shard(2, ['two']), shard(1, ['three', 'one'])]);
    expect(merged?.cases.map((c) => c.id)).toEqual(['one', 'two', 'three']);
    expect(merged?.durationMs).toBe(5);
  });

  it('refuses a missing shard, a repeated one, a case twice, and shards of different selections', () => {
    expect(() => mergeSuites([shard(1, ['one', 'two', 'three'], 3)])).toThrow(/shard 2\/3, 3\/3 missing/);
    expect(() => mergeSuites([shard(1, ['one']), shard(1, ['two', 'three'])])).toThrow(/both shard 1\/2/);
    expect(() => mergeSuites([shard(1, ['one', 'two']), shard(2, ['two', 'three'])])).toThrow(/case s\/two is in both shard-1.json and shard-2.json/);
    expect(() => mergeSuites([shard(1, ['one']), shard(2, ['two', 'three'], 2, { s: ['one', 'two'] })])).toThrow(/split different selections/);
    expect(() => mergeSuites([shard(1, ['one']), shard(2, ['two'])])).toThrow(/lack 1 selected case\(s\) of suite s \(first: three\)/);
  });

  it('refuses a shard mixed with an unsharded report, and merges unsharded reports of separate suites', () => {
    const plain = (name: string): ReadReport => ({ ...shard(1, []), file: `${name}.json`, suites: [suite(name, ['x'])], shard: undefined });
    expect(() => mergeSuites([shard(1, ['one']), plain('t')])).toThrow(/t.json is not a shard's report/);
    expect(mergeSuites([plain('t'), plain('u')]).map((s) => s.name)).toEqual(['t', 'u']);
    expect(() => mergeSuites([plain('t'), plain('t')])).toThrow(/case t\/x is in both/);
  });
});

describe('checkShardSplit', () => {
  const ids = Array.from({ length: 12 }, (_x, i) => `case-${i}`);
  const installed = new Map<string, LoadedSuite>([['s', { name: 's', dir: '', requirements: [], cases: ids.map((id) => ({ id, requirements: ['R-A'], steps: [], location: { file: 'c.yaml', line: 1, column: 1 } })) }]]);
  const all = { s: ids };
  /** The two shards of a run of every case, split by hash as `run --shard k/2` splits them. */
  const byHash = (): ReadReport[] => [1, 2].map((k) => shard(k, ids.filter((id) => hashShard(`s/${id}`, 2) === k), 2, all));
  /** The same report with another shard index. */
  const relabel = (r: ReadReport | undefined, index: number): ReadReport => ({ ...(r as ReadReport), shard: { ...(r?.shard as ShardInfo), index } });

  it('accepts shards that hold the cases of their own shard', () => {
    const parts = byHash();
    expect(parts.every((p) => p.suites[0]?.cases.length)).toBe(true);
    expect(() => checkShardSplit(parts, installed)).not.toThrow();
  });

  it('refuses shards whose index was relabelled, naming the report and a case of another shard', () => {
    const [a, b] = byHash();
    // the two parts swap labels: together they still cover the run once, and each is one shard
    const swapped = [relabel(a, 2), relabel(b, 1)];
    expect(() => mergeSuites(swapped)).not.toThrow();
    expect(() => checkShardSplit(swapped, installed)).toThrow(/shard-1\.json says it is shard 2\/2, but its case s\/case-\d+ falls in shard 1\/2 of that run's split/);
  });

  it('refuses a part relabelled as the whole run (1/1) when its split was another', () => {
    const whole: ReadReport = { ...(byHash()[0] as ReadReport), shard: { index: 1, total: 1, selected: all } };
    // the split check passes (every case falls in shard 1 of 1); what is missing is caught by coverage
    expect(() => checkShardSplit([whole], installed)).not.toThrow();
    expect(() => mergeSuites([whole])).toThrow(/lack \d+ selected case\(s\) of suite s/);
  });

  it('computes a split balanced by timings again from the recorded durations, and holds the shards to it', () => {
    const timings = { durations: Object.fromEntries(ids.map((id, i) => [`s/${id}`, (i + 1) * 100])), concurrency: 1 };
    // longest first onto the least-loaded shard: 1200 -> 1, 1100 -> 2, 1000 -> 2, 900 -> 1, ...
    const first = ['case-11', 'case-8', 'case-7', 'case-4', 'case-3', 'case-0'];
    const parts = [1, 2].map((k): ReadReport => ({ ...shard(k, ids.filter((id) => first.includes(id) === (k === 1)), 2, all), shard: { index: k, total: 2, selected: all, timings } }));
    expect(() => checkShardSplit(parts, installed)).not.toThrow();
    const [a, b] = parts;
    expect(() => checkShardSplit([relabel(a, 2), relabel(b, 1)], installed)).toThrow(/says it is shard 2\/2, but its case s\/case-\d+ falls in shard 1\/2/);
    // shards split by different timings are not parts of one run
    expect(() => mergeSuites([a as ReadReport, { ...(b as ReadReport), shard: { index: 2, total: 2, selected: all, timings: { ...timings, concurrency: 8 } } }])).toThrow(/split by different timings/);
    // timings dropped from both: the split is then checked as a hash split, which these parts are not
    const untimed = parts.map((p): ReadReport => ({ ...p, shard: { index: p.shard?.index ?? 0, total: 2, selected: all } }));
    const hashed = ids.filter((id) => hashShard(`s/${id}`, 2) === 1);
    expect(hashed.join()).not.toBe(first.join());
    expect(() => checkShardSplit(untimed, installed)).toThrow(/falls in shard/);
  });
});

describe('reading a JSON report back', () => {
  it('gives back the case results as run, with null fields absent again', () => {
    const run = makeRunResult();
    const read = parseJsonReport(renderJson(run, '9.9.9'), 'r.json');
    expect(read.suites.map((s) => s.name)).toEqual(run.suites.map((s) => s.name));
    const original = run.suites[0]?.cases ?? [];
    expect(read.suites[0]?.cases.map((c) => [c.id, c.outcome, c.failures.length, c.reason, c.baseline])).toEqual(original.map((c) => [c.id, c.outcome, c.failures.length, c.reason, c.baseline]));
    // an excluded requirement keeps its reason as the catalog's exclusion
    const excluded = run.requirements.find((r) => r.status === 'excluded');
    expect(read.suites.flatMap((s) => s.catalog).find((r) => r.id === excluded?.id)?.excluded).toBe(excluded?.reason);
  });

  it('reads back the version of each suite; a report that records none gives its specgate version', () => {
    const run = makeRunResult();
    const plugin = run.suites[1];
    if (!plugin) throw new Error('fixture changed');
    plugin.version = '2.0.0';
    const read = parseJsonReport(renderJson(run, '9.9.9'), 'r.json');
    expect(read.suites.map((s) => s.version)).toEqual(['9.9.9', '2.0.0']);
    const old = parseJsonReport('{"specgate":{"version":"0.0.7","format":1},"requirements":[],"suites":[{"name":"s","cases":[]}]}', 'old.json');
    expect(old.suites[0]?.version).toBe('0.0.7');
  });

  it('refuses a shard mark no run writes: an index outside 1..total, no selection, timings that are not durations', () => {
    const withShard = (shard: string): string => `{"specgate":{"version":"1","format":1},"requirements":[],"suites":[],"shard":${shard}}`;
    expect(parseJsonReport(withShard('{"index":2,"total":3,"selected":{"s":["a"]}}'), 'ok.json').shard).toEqual({ index: 2, total: 3, selected: { s: ['a'] } });
    for (const bad of ['{"index":0,"total":3,"selected":{}}', '{"index":4,"total":3,"selected":{}}', '{"index":1.5,"total":3,"selected":{}}', '{"index":"1","total":"1","selected":{}}', 'null']) {
      expect(() => parseJsonReport(withShard(bad), 'forged.json')).toThrow(/forged\.json: its "shard" is .*, which no `specgate run --shard` writes/);
    }
    expect(() => parseJsonReport(withShard('{"index":1,"total":1,"selected":{"s":[1]}}'), 'f.json')).toThrow(/has no selection of case IDs per suite/);
    expect(() => parseJsonReport(withShard('{"index":1,"total":1,"selected":{},"timings":{"durations":{"s/a":-1},"concurrency":8}}'), 'f.json')).toThrow(/has timings that are not durations/);
  });

  it('refuses what is not a specgate JSON report, saying what to give', () => {
    expect(() => parseJsonReport('{"a":1}', 'x.json')).toThrow(/x.json: not a specgate JSON report/);
    expect(() => parseJsonReport('nope', 'y.json')).toThrow(/y.json: not JSON/);
    expect(() => parseJsonReport('{"specgate":{"format":99},"requirements":[],"suites":[]}', 'z.json')).toThrow(/format 99/);
  });
});

describe('merging runs of one side each', () => {
  const catalog = [
    { id: 'R-S', level: 'MUST' as const, source: 's#1', text: 's', side: 'server' },
    { id: 'R-C', level: 'MUST' as const, source: 's#1', text: 'c', side: 'client' },
  ];
  const sided = (file: string, sides: string[] | undefined, id: string, requirement: string): ReadReport => ({
    ...shard(1, []),
    file,
    shard: undefined,
    suites: [{ name: 's', target: 't', durationMs: 5, ...(sides ? { sides } : {}), properties: sides ? { side: sides.join(',') } : {}, version: '1', catalog, cases: [{ ...result('s', id), requirements: [requirement] }] }],
  });

  it('a server-side run and a client-side run together judge both sides: nothing is left not applicable', () => {
    const [merged] = mergeSuites([sided('server.json', ['server'], 'a', 'R-S'), sided('client.json', ['client'], 'b', 'R-C')]);
    expect(merged?.sides).toBeUndefined();
    expect(merged?.properties['side']).toBeUndefined();
    const run = judgeMerged([], merged ? [merged] : [], gatingOf(false), new Baseline());
    expect(run.requirements.map((r) => [r.id, r.status])).toEqual([['R-S', 'passed'], ['R-C', 'passed']]);
  });

  it('runs of the same side stay one side: the other side is still not applicable after the merge', () => {
    const [merged] = mergeSuites([sided('one.json', ['server'], 'a', 'R-S'), sided('two.json', ['server'], 'b', 'R-S')]);
    expect(merged?.sides).toEqual(['server']);
    const run = judgeMerged([], merged ? [merged] : [], gatingOf(false), new Baseline());
    expect(run.requirements.find((r) => r.id === 'R-C')).toMatchObject({ status: 'not-applicable', reason: 'this run judges the server side only' });
    expect(run.suites[0]?.sides).toEqual(['server']);
    expect(run.summary.exitCode).toBe(0);
  });

  it('reads back the side of each requirement, the sides of a suite and the not-applicable mark of a case', () => {
    const run = makeRunResult();
    const oauth = run.suites[0];
    if (!oauth) throw new Error('fixture changed');
    oauth.sides = ['server'];
    oauth.cases.push({ suite: 'oauth', id: 'no-mode', requirements: ['OAUTH-X'], outcome: 'skipped', notApplicable: true, reason: 'no such mode', failures: [], exchanges: [], durationMs: 0 });
    oauth.requirements.push({ id: 'OAUTH-X', suite: 'oauth', level: 'MUST', side: 'server', text: 'x', source: 's#1', status: 'not-applicable', cases: ['no-mode'], failures: [], errored: 0, skipped: 1 });
    run.requirements = run.suites.flatMap((s) => s.requirements);
    const read = parseJsonReport(renderJson(run, '9.9.9'), 'r.json');
    expect(read.suites[0]?.sides).toEqual(['server']);
    expect(read.suites[1]?.sides).toBeUndefined();
    expect(read.suites[0]?.catalog.find((r) => r.id === 'OAUTH-X')?.side).toBe('server');
    expect(read.suites[0]?.cases.find((c) => c.id === 'no-mode')).toMatchObject({ notApplicable: true, reason: 'no such mode' });
    expect(read.suites[0]?.cases.find((c) => c.id === 'device-code-expiry')?.notApplicable).toBeUndefined();
  });
});
