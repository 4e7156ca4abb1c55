/**
 * bench/goals.ts: the goals a benchmark run judged, kept as they are printed, and the table
 * `npm run bench` ends with.
 */
import { describe, expect, it } from 'vitest';
import { goalsTable, goalVerdicts, judgeFigure, judgeValue, judgingFor, type GoalVerdict } from '../../bench/goals.js';
import { formatFigure, summarize } from '../../bench/rounds.js';

describe('judgeFigure', () => {
  it('prints the figure as formatFigure does and keeps its verdict under the benchmark named last', () => {
    judgingFor('harness-http');
    const s = summarize([1.2, 1.1, 1.3, 1.15, 1.25, 1.05, 1.4]);
    const opts = { goal: { op: '<=' as const, value: 1.1 } };
    const before = goalVerdicts().length;
    expect(judgeFigure('overhead', s, opts)).toBe(formatFigure('overhead', s, opts));
    expect(goalVerdicts().slice(before)).toEqual([{ bench: 'harness-http', label: 'overhead', measured: '1.20', goal: '<= 1.10', met: false }]);
  });

  it('keeps the unit and decimals of the figure, and a met goal as met', () => {
    judgingFor('whole-runs');
    const before = goalVerdicts().length;
    judgeFigure('default run', summarize([10.2, 9.9, 10.6, 10.1, 10.4, 9.6, 10.9]), { name: 'median wall', unit: ' s', goal: { op: '<=', value: 12 } });
    expect(goalVerdicts().slice(before)).toEqual([{ bench: 'whole-runs', label: 'default run', measured: '10.20 s', goal: '<= 12.00 s', met: true }]);
  });
});

describe('judgeValue', () => {
  it('keeps a verdict given as is and answers MET or NOT MET for the caller’s line', () => {
    judgingFor('scale');
    const before = goalVerdicts().length;
    expect(judgeValue('time a case adds', '1.04×', '<= 1.1×', true)).toBe('MET');
    expect(judgeValue('memory a case adds', '1.30×', '<= 1.1×', false)).toBe('NOT MET');
    expect(goalVerdicts().slice(before).map((v) => [v.bench, v.met])).toEqual([
      ['scale', true],
      ['scale', false],
    ]);
  });
});

describe('goalsTable', () => {
  const v = (bench: string, met: boolean): GoalVerdict => ({ bench, label: `${bench} figure`, measured: '1.00', goal: '<= 1.10', met });

  it('is empty when no goal was judged', () => {
    expect(goalsTable([])).toBe('');
  });

  it('lists every goal with its verdict first, then how many were met and which benchmarks missed', () => {
    const table = goalsTable([v('cli-start', true), v('harness-http', false), v('merchant-routes', false), v('merchant-routes', false)]).split('\n');
    expect(table).toHaveLength(5);
    // the verdict and the benchmark's name in columns as wide as the widest
    expect(table[0]).toBe('MET      cli-start        cli-start figure: 1.00 (goal <= 1.10)');
    expect(table[1]).toMatch(/^NOT MET {2}harness-http/);
    expect(table[4]).toBe('1 of 4 goals met; not met: harness-http, merchant-routes');
  });

  it('reads a label padded into columns as one line', () => {
    const padded: GoalVerdict = { bench: 'collation-sort', label: '    {"locale":"en"}      reference   219 ms', measured: '1.01', goal: '<= 2.00', met: true };
    expect(goalsTable([padded]).split('\n')[0]).toBe('MET      collation-sort  {"locale":"en"} reference 219 ms: 1.01 (goal <= 2.00)');
  });

  it('says so when every goal was met', () => {
    expect(goalsTable([v('a', true), v('b', true)]).split('\n').at(-1)).toBe('2 of 2 goals met');
  });
});
