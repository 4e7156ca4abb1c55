import { describe, expect, it } from 'vitest';
import { judgeMerged } from '../../cli/merge-command.js';
import { mergeSuites } from '../../cli/merge-shards.js';
import { parseJsonReport, type ReadReport, type ReadSuite } from '../../cli/results-file.js';
import { Baseline } from '../../src/engine/baseline.js';
import { gatingOf } from '../../src/engine/verdicts.js';
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

describe('merging runs of one side each', () => {
  const catalog = [
    { id: 'R-S', level: 'MUST' as const, source: 's#1', text: 's', side: 'server' },
    { id: 'R-C', level: 'MUST' as const, source: 's#1', text: 'c', side: 'client' },
  ];
  const sided = (file: string, sides: string[] | undefined, id: string, requirement: string): ReadReport => ({
    ...shard(1, []),
    file,
    shard: undefined,
    suites: [{ name: 's', target: 't', durationMs: 5, ...(sides ? { sides } : {}), properties: sides ? { side: sides.join(',') } : {}, catalog, cases: [{ ...result('s', id), requirements: [requirement] }] }],
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
