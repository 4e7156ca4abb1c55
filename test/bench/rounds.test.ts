/**
 * bench/rounds.ts, the statistics every benchmark's figure is made of: median and spread on known
 * samples, goals judged on the median, the figure's line, and the interleaved order of the rounds.
 */
import { describe, expect, it } from 'vitest';
import { formatFigure, formatSummary, interleave, interleaveAll, meets, MIN_ROUNDS, quantile, roundCount, roundOrder, roundRatios, summarize } from '../../bench/rounds.js';

describe('summarize', () => {
  it('gives the middle value, the extremes and the quartiles of an odd sample, whatever its order', () => {
    expect(summarize([5, 1, 4, 2, 3])).toEqual({ n: 5, median: 3, min: 1, max: 5, q1: 2, q3: 4 });
  });

  it('gives the mean of the two middle values and interpolated quartiles of an even sample', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ n: 4, median: 2.5, min: 1, max: 4, q1: 1.75, q3: 3.25 });
  });

  it('is not moved by one wild round, where a mean would be', () => {
    const s = summarize([1.1, 1.2, 1.15, 9.0, 1.18, 1.12, 1.16]);
    expect(s.median).toBe(1.16);
    expect(s.min).toBe(1.1);
    expect(s.max).toBe(9.0);
    expect(s.q1).toBeCloseTo(1.135, 10);
    expect(s.q3).toBeCloseTo(1.19, 10);
  });

  it('of one value is that value throughout; of none, NaN', () => {
    expect(summarize([7])).toEqual({ n: 1, median: 7, min: 7, max: 7, q1: 7, q3: 7 });
    const empty = summarize([]);
    expect(empty.n).toBe(0);
    for (const k of ['median', 'min', 'max', 'q1', 'q3'] as const) expect(empty[k]).toBeNaN();
  });

  it('does not reorder the sample it is given', () => {
    const xs = [3, 1, 2];
    summarize(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe('quantile', () => {
  it('interpolates linearly between order statistics', () => {
    const s = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(quantile(s, 0)).toBe(10);
    expect(quantile(s, 1)).toBe(100);
    expect(quantile(s, 0.5)).toBe(55);
    expect(quantile(s, 0.25)).toBeCloseTo(32.5, 10);
    expect(quantile(s, 0.75)).toBeCloseTo(77.5, 10);
  });
});

describe('meets', () => {
  it('judges each comparison, bounds included or not', () => {
    expect(meets(1.3, { op: '<=', value: 1.3 })).toBe(true);
    expect(meets(1.31, { op: '<=', value: 1.3 })).toBe(false);
    expect(meets(5, { op: '<', value: 5 })).toBe(false);
    expect(meets(0.85, { op: '>=', value: 0.85 })).toBe(true);
    expect(meets(0.85, { op: '>', value: 0.85 })).toBe(false);
  });
});

describe('roundCount', () => {
  it('is at least MIN_ROUNDS (7), more when BENCH_ROUNDS asks', () => {
    expect(MIN_ROUNDS).toBe(7);
    expect(roundCount({})).toBe(7);
    expect(roundCount({ BENCH_ROUNDS: '3' })).toBe(7);
    expect(roundCount({ BENCH_ROUNDS: '11' })).toBe(11);
    expect(roundCount({ BENCH_ROUNDS: 'many' })).toBe(7);
  });
});

describe('formatFigure', () => {
  const s = summarize([1.06, 1.12, 1.16, 1.21, 1.22, 1.26, 1.33]);

  it('prints the median, min–max, IQR, round count, the goal and MET judged on the median', () => {
    expect(formatFigure('harness overhead', s, { goal: { op: '<=', value: 1.3 } })).toBe(
      'harness overhead: median ratio specgate/bare = 1.21 (min–max 1.06–1.33, IQR 1.14–1.24, 7 rounds) (goal <= 1.30) MET',
    );
  });

  it('says NOT MET when the median misses, even if some rounds met it', () => {
    expect(formatFigure('x', s, { goal: { op: '<=', value: 1.2 } })).toMatch(/\(goal <= 1\.20\) NOT MET$/);
  });

  it('reports a figure without a goal, with its own name, digits and unit', () => {
    expect(formatFigure('server side', summarize([0.61, 0.55, 0.7]), { name: 'median wall time', unit: ' s' })).toBe(
      'server side: median wall time = 0.61 s (min–max 0.55–0.70, IQR 0.58–0.66, 3 rounds) (reported)',
    );
    expect(formatSummary(summarize([1900, 2100, 2000]), 0, ' sets/s')).toBe('2000 sets/s (min–max 1900–2100, IQR 1950–2050, 3 rounds)');
  });
});

describe('interleave', () => {
  it('alternates which side goes first, after the warm-up, and summarizes the per-round ratios', async () => {
    const calls: string[] = [];
    let b = 0;
    let s = 0;
    const bareTimes = [100, 100, 100, 100, 100, 100, 100, 100];
    const sgTimes = [999, 110, 120, 130, 140, 150, 160, 170];
    const result = await interleave(
      () => {
        calls.push('bare');
        return bareTimes[b++] as number;
      },
      async () => {
        calls.push('specgate');
        return sgTimes[s++] as number;
      },
      { rounds: 7 },
    );
    // one warm-up pair, then bare first in odd rounds and specgate first in even ones
    expect(calls).toEqual(['bare', 'specgate', 'bare', 'specgate', 'specgate', 'bare', 'bare', 'specgate', 'specgate', 'bare', 'bare', 'specgate', 'specgate', 'bare', 'bare', 'specgate']);
    expect(result.rounds.map((r) => r.bareFirst)).toEqual([true, false, true, false, true, false, true]);
    // the warm-up's 999 is not a round
    expect(result.ratios).toEqual([1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7]);
    expect(result.ratio.median).toBeCloseTo(1.4, 10);
    expect(result.ratio.min).toBeCloseTo(1.1, 10);
    expect(result.ratio.max).toBeCloseTo(1.7, 10);
    expect(result.ratio.q1).toBeCloseTo(1.25, 10);
    expect(result.ratio.q3).toBeCloseTo(1.55, 10);
    expect(result.specgate.median).toBe(140);
    expect(result.bare.median).toBe(100);
  });

  it('takes a ratio of its own (a throughput ratio), no warm-up, and reports each round', async () => {
    const seen: number[] = [];
    const result = await interleave(
      () => 90,
      () => 100,
      { rounds: 8, warmup: 0, ratio: (bare, sg) => bare / sg, onRound: (r) => seen.push(r.round) },
    );
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.ratio).toEqual({ n: 8, median: 0.9, min: 0.9, max: 0.9, q1: 0.9, q3: 0.9 });
  });

  it('refuses fewer than 7 rounds', async () => {
    await expect(interleave(() => 1, () => 1, { rounds: 5 })).rejects.toThrow(/at least 7 rounds/);
  });
});

describe('interleaveAll', () => {
  it('runs the sides rotated every second round and reversed in odd rounds, after the warm-up, and summarizes each side', async () => {
    const calls: string[] = [];
    const side = (name: string, times: number[]) => {
      let i = 0;
      return () => {
        calls.push(name);
        return times[i++] as number;
      };
    };
    const result = await interleaveAll(
      {
        a: side('a', [999, 1, 2, 3, 4, 5, 6, 7]),
        b: side('b', [999, 10, 20, 30, 40, 50, 60, 70]),
        c: side('c', [999, 7, 6, 5, 4, 3, 2, 1]),
      },
      { rounds: 7 },
    );
    expect(calls.slice(0, 3)).toEqual(['a', 'b', 'c']);
    expect(calls.slice(3).join(' ')).toBe(['a b c', 'c b a', 'b c a', 'a c b', 'c a b', 'b a c', 'a b c'].join(' '));
    // the warm-up's 999 is not a round
    expect(result['a']?.values).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(result['b']?.summary).toEqual({ n: 7, median: 40, min: 10, max: 70, q1: 25, q3: 55 });
    expect(result['c']?.summary.median).toBe(4);
  });

  it('gives one side over another round by round (roundRatios)', () => {
    const sides = { a: { values: [2, 3, 8], summary: summarize([2, 3, 8]) }, b: { values: [1, 2, 4], summary: summarize([1, 2, 4]) } };
    expect(roundRatios(sides, 'a', 'b')).toEqual([2, 1.5, 2]);
    expect(roundRatios(sides, 'a', 'missing').every(Number.isNaN)).toBe(true);
  });

  it('runs every pair of sides once in each order in every two rounds', () => {
    for (const names of [['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']]) {
      for (let r = 0; r < 2 * names.length * 3; r += 2) {
        const first = roundOrder(names, r);
        const second = roundOrder(names, r + 1);
        expect([...first].sort()).toEqual(names);
        for (const x of names)
          for (const y of names) if (x !== y) expect(first.indexOf(x) < first.indexOf(y)).toBe(second.indexOf(x) > second.indexOf(y));
      }
      // and each side takes every place in turn
      const places = new Set(Array.from({ length: 2 * names.length }, (_, r) => roundOrder(names, r).indexOf('a')));
      expect(places.size).toBe(names.length);
    }
  });

  it('reports each round with every side measured, and refuses fewer than 7 rounds', async () => {
    const seen: [number, Record<string, number>][] = [];
    await interleaveAll({ x: () => 1, y: async () => 2 }, { rounds: 7, warmup: 0, onRound: (r, v) => seen.push([r, v]) });
    expect(seen.map(([r]) => r)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen[1]?.[1]).toEqual({ x: 1, y: 2 });
    await expect(interleaveAll({ x: () => 1 }, { rounds: 6 })).rejects.toThrow(/at least 7 rounds/);
  });
});
