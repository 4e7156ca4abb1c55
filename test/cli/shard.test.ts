import { describe, expect, it } from 'vitest';
import type { CaseDef, LoadedSuite } from '../../src/engine/model.js';
import { hashShard, parseShard, planShard, recordedSplit, shardSelector } from '../../cli/shard.js';

const def = (id: string, tags?: string[]): CaseDef => ({ id, requirements: [], steps: [], location: { file: 'c.yaml', line: 1, column: 1 }, ...(tags ? { tags } : {}) });
const suite = (name: string, ids: string[]): LoadedSuite => ({ name, dir: '/x', requirements: [], cases: ids.map((id) => def(id)) });

describe('--shard', () => {
  it('takes k/n with 1 <= k <= n and refuses anything else with a usage error', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '3', 'a/b', '1/0', '-1/2']) expect(() => parseShard(bad)).toThrow(/--shard takes k\/n/);
  });

  it('hashes a case key to the same shard on every machine (a fixed function of the key)', () => {
    // the first four bytes of SHA-256 of the key, modulo n, plus one: 0x88ff1618 % 3 = 2 -> shard 3
    expect(['demo/hello-world', 'demo/name-echo', 'oauth/device-poll-too-fast-slows-down'].map((k) => hashShard(k, 3))).toEqual([3, 1, 3]);
    expect(hashShard('demo/hello-world', 1)).toBe(1);
  });

  it('assigns every case to exactly one shard, the same whatever the order of the other cases', () => {
    const ids = Array.from({ length: 200 }, (_x, i) => `case-${i}`);
    const a = planShard([{ suite: suite('s', ids), cases: suite('s', ids).cases }], 4).assignment;
    const reversed = [...ids].reverse();
    const b = planShard([{ suite: suite('s', reversed), cases: suite('s', reversed).cases }], 4).assignment;
    expect(a.size).toBe(200);
    for (const id of ids) expect(a.get(`s/${id}`)).toBe(b.get(`s/${id}`));
    const sizes = [1, 2, 3, 4].map((k) => [...a.values()].filter((v) => v === k).length);
    // a hash spreads 200 cases roughly evenly
    for (const n of sizes) expect(n).toBeGreaterThan(25);
  });

  it('with timings, places the longest first on the least-loaded shard; a case that runs alone counts whole', () => {
    const s = suite('s', []);
    const cases = [def('slow-alone', ['time-bound']), def('slow-free'), def('a'), def('b'), def('new-case')];
    const timings = new Map([
      ['s/slow-alone', 800],
      ['s/slow-free', 800],
      ['s/a', 100],
      ['s/b', 100],
    ]);
    const plan = planShard([{ suite: s, cases }], 2, timings, 8);
    // slow-alone costs 800; slow-free 100 in a pool of 8; the rest 12.5 each
    expect(plan.assignment.get('s/slow-alone')).toBe(1);
    expect(plan.assignment.get('s/slow-free')).toBe(2);
    expect([plan.assignment.get('s/a'), plan.assignment.get('s/b'), plan.assignment.get('s/new-case')]).toEqual([2, 2, 2]);
    expect(plan.method).toContain('1 case(s) without one counted at the median');
    expect(planShard([{ suite: s, cases }], 2, timings, 8).assignment).toEqual(plan.assignment);
  });

  it('counts a case of an exclusive group whole, as one that runs alone', () => {
    const s = suite('s', []);
    const cases = [def('slow-grouped', ['exclusive:items']), def('slow-free'), def('a'), def('b')];
    const timings = new Map([
      ['s/slow-grouped', 800],
      ['s/slow-free', 800],
      ['s/a', 100],
      ['s/b', 100],
    ]);
    const plan = planShard([{ suite: s, cases }], 2, timings, 8);
    // slow-grouped costs 800, alone on its shard; slow-free 100 in a pool of 8 and the rest 12.5 each on the other
    expect(plan.assignment.get('s/slow-grouped')).toBe(1);
    expect([plan.assignment.get('s/slow-free'), plan.assignment.get('s/a'), plan.assignment.get('s/b')]).toEqual([2, 2, 2]);
  });

  it('falls back to the hash when the timing file knows none of the cases', () => {
    const s = suite('s', ['x', 'y']);
    const plan = planShard([{ suite: s, cases: s.cases }], 2, new Map([['other/z', 5]]));
    expect(plan.method).toContain('by hash');
    expect(plan.assignment.get('s/x')).toBe(hashShard('s/x', 2));
  });

  it('records what the split was balanced by, so the split can be computed again from a shard\'s report alone', () => {
    const s = suite('s', []);
    const cases = [def('slow-alone', ['time-bound']), def('slow-free'), def('a'), def('b'), def('new-case')];
    const timings = new Map([
      ['s/slow-alone', 800],
      ['s/slow-free', 800],
      ['s/a', 100],
      ['other/z', 5],
    ]);
    const { info } = shardSelector({ index: 2, total: 2 }, { timings, concurrency: 4 })([{ suite: s, cases }]);
    // only the selected cases the file knew, and the concurrency the pooled ones were divided by
    expect(info.timings).toEqual({ durations: { 's/slow-alone': 800, 's/slow-free': 800, 's/a': 100 }, concurrency: 4 });
    expect(recordedSplit(info, [{ suite: s, cases }])).toEqual(planShard([{ suite: s, cases }], 2, timings, 4).assignment);
    // split by hash: nothing recorded, and the hash split comes out again
    const hashed = shardSelector({ index: 1, total: 3 })([{ suite: s, cases }]).info;
    expect(hashed.timings).toBeUndefined();
    expect([...recordedSplit(hashed, [{ suite: s, cases }])]).toEqual(cases.map((c) => [`s/${c.id}`, hashShard(`s/${c.id}`, 3)]));
  });
});
