import { formatFigure, meets, type FigureOptions, type Goal, type Summary } from './rounds.js';

/**
 * The goals `npm run bench` judged, in the order it judged them, for the table it prints at the
 * end (bench/run-all.ts): each benchmark's goal figures go through {@link judgeFigure} or
 * {@link judgeValue}, which print the figure's line as before and keep its verdict. A figure
 * printed for comparison only (a baseline build's, a figure without a goal) is not kept.
 */
export interface GoalVerdict {
  /** The benchmark that judged it (set by run-all.ts; empty when a benchmark runs on its own). */
  bench: string;
  /** What was measured, as the figure's line names it. */
  label: string;
  /** The measured median (or value), with its unit: `1.13`, `3.46 s`. */
  measured: string;
  /** The goal as printed: `<= 1.10`, `< 512 MB`. */
  goal: string;
  met: boolean;
}

const verdicts: GoalVerdict[] = [];
let current = '';

/** Names the benchmark whose goals are judged next (run-all.ts, before each benchmark). */
export function judgingFor(bench: string): void {
  current = bench;
}

/** The goals judged so far in this process, in order. */
export function goalVerdicts(): readonly GoalVerdict[] {
  return verdicts;
}

function goalText(goal: Goal, digits: number, unit: string): string {
  return `${goal.op} ${goal.value.toFixed(digits)}${unit}`;
}

/** {@link formatFigure} of a figure with a goal, its verdict kept for the closing table. */
export function judgeFigure(label: string, s: Summary, opts: FigureOptions & { goal: Goal }): string {
  const digits = opts.digits ?? 2;
  const unit = opts.unit ?? '';
  verdicts.push({ bench: current, label, measured: `${s.median.toFixed(digits)}${unit}`, goal: goalText(opts.goal, digits, unit), met: meets(s.median, opts.goal) });
  return formatFigure(label, s, opts);
}

/**
 * A goal judged on something other than one median (a ratio of two sizes, every row of a table
 * under a limit): kept with its verdict as given; returns `MET` or `NOT MET` for the caller's line.
 */
export function judgeValue(label: string, measured: string, goal: string, met: boolean): string {
  verdicts.push({ bench: current, label, measured, goal, met });
  return met ? 'MET' : 'NOT MET';
}

/**
 * The closing table: one line per goal judged, MET or NOT MET first, then how many were met.
 * Empty when no goal was judged (only benchmarks that report).
 */
export function goalsTable(list: readonly GoalVerdict[] = verdicts): string {
  if (!list.length) return '';
  const width = Math.max(...list.map((v) => v.bench.length));
  // a label padded into columns on its own line reads as one line here
  const lines = list.map((v) => `${(v.met ? 'MET' : 'NOT MET').padEnd(7)}  ${v.bench.padEnd(width)}  ${v.label.replace(/\s+/g, ' ').trim()}: ${v.measured} (goal ${v.goal})`);
  const met = list.filter((v) => v.met).length;
  return [...lines, `${met} of ${list.length} goals met${met === list.length ? '' : `; not met: ${[...new Set(list.filter((v) => !v.met).map((v) => v.bench))].join(', ')}`}`].join('\n');
}
