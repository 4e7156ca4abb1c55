import { describe, expect, it } from 'vitest';
import { mergeSuites } from '../../cli/merge-shards.js';
import { parseJsonReport, type ReadReport, type ReadSuite } from '../../cli/results-file.js';
import type { CaseResult } from '../../src/engine/model.js';
import { renderJson } from '../../src/reporting/json.js';
import { makeRunResult } from '../fixtures/reporting/run-result.js';

const result = (suite: string, id: string): CaseResult => ({ suite, id, requirements: ['R-A'], outcome: 'passed', failures: [], exchanges: [], durationMs: 1 });
const suite = (name: string, ids: string[]): ReadSuite => ({ name, target: 't', durationMs: 5, properties: {}, catalog: [{ id: 'R-A', level: 'MUST', source: 's#1', text: 'a' }], cases: ids.map((id) => result(name, id)) });
const selected = { s: ['one', 'two', 'three'] };
const shard = (index: number, ids: string[], total = 2, sel: Record<string, string[]> = selected): ReadReport => ({
  file: `shard-${index}.json`,
  version: '1',
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: index * 10,
  seed: 1,
  strict: false,
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

  it('refuses what is not a specgate JSON report, saying what to give', () => {
    expect(() => parseJsonReport('{"a":1}', 'x.json')).toThrow(/x.json: not a specgate JSON report/);
    expect(() => parseJsonReport('nope', 'y.json')).toThrow(/y.json: not JSON/);
    expect(() => parseJsonReport('{"specgate":{"format":99},"requirements":[],"suites":[]}', 'z.json')).toThrow(/format 99/);
  });
});
