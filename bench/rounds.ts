/**
 * How every benchmark here turns timings into a figure, so a figure means the same on every run
 * of a noisy machine: the two sides (a bare baseline and specgate) are run interleaved, in an
 * order alternating per round (bare first, then specgate first, ...) so a drift in machine load
 * favours neither; at least {@link MIN_ROUNDS} rounds after a warm-up; and the figure is the
 * median of the per-round ratios, printed with their spread (min–max and interquartile range)
 * and the goal judged on the median.
 */
import { readFileSync } from 'node:fs';

/** The fewest rounds a figure is made of; `BENCH_ROUNDS` may ask for more, never fewer. */
export const MIN_ROUNDS = 7;

/** The round count: `BENCH_ROUNDS` when it is a number of at least {@link MIN_ROUNDS}, else {@link MIN_ROUNDS}. */
export function roundCount(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Math.floor(Number(env['BENCH_ROUNDS'] ?? MIN_ROUNDS));
  return Number.isFinite(asked) ? Math.max(MIN_ROUNDS, asked) : MIN_ROUNDS;
}

/** Median, extremes and quartiles of a sample. */
export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  /** First and third quartiles (linear interpolation between order statistics, as numpy's default and R's type 7). */
  q1: number;
  q3: number;
}

/** The `p`-quantile (0..1) of an ascending sample, linearly interpolated between order statistics. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (at - lo);
}

/** Median (mean of the two middle values for an even count), min, max and quartiles of `xs`; NaN throughout when empty. */
export function summarize(xs: readonly number[]): Summary {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), min: s[0] ?? Number.NaN, max: s[s.length - 1] ?? Number.NaN, q1: quantile(s, 0.25), q3: quantile(s, 0.75) };
}

/** The median of `xs` (of {@link summarize}); NaN when empty. */
export function median(xs: readonly number[]): number {
  return summarize(xs).median;
}

/** A goal on a figure's median, e.g. `{ op: '<=', value: 1.3 }`. */
export interface Goal {
  op: '<=' | '<' | '>=' | '>';
  value: number;
}

/** Whether `value` meets `goal`. */
export function meets(value: number, goal: Goal): boolean {
  switch (goal.op) {
    case '<=':
      return value <= goal.value;
    case '<':
      return value < goal.value;
    case '>=':
      return value >= goal.value;
    case '>':
      return value > goal.value;
  }
}

/** One round of {@link interleave}: both sides' measures (usually ms) and their ratio. */
export interface Round {
  /** 1-based. */
  round: number;
  bare: number;
  specgate: number;
  ratio: number;
  /** Whether the bare side ran first in this round. */
  bareFirst: boolean;
}

export interface Interleaved {
  rounds: Round[];
  /** The per-round ratios, in round order. */
  ratios: number[];
  /** Of the per-round ratios: the figure. */
  ratio: Summary;
  bare: Summary;
  specgate: Summary;
}

export interface InterleaveOptions {
  /** Rounds measured; at least {@link MIN_ROUNDS} (default {@link roundCount}()). */
  rounds?: number;
  /** Unrecorded rounds of both sides run first (JIT, caches, pools); default 1. */
  warmup?: number;
  /**
   * The per-round ratio from the two measures; default `specgate / bare` (time against time: lower
   * is better). A throughput ratio of times is `bare / specgate`.
   */
  ratio?: (bare: number, specgate: number) => number;
  /** Called after each measured round, e.g. to print it. */
  onRound?: (round: Round) => void;
}

export type Thunk = () => number | Promise<number>;

/**
 * Runs `bare` and `specgate` (each returning its own measure, usually the ms it timed) in
 * alternating order, round after round — bare then specgate in odd rounds, specgate then bare in
 * even ones — after `warmup` unrecorded rounds, and returns every round with the summaries.
 */
export async function interleave(bare: Thunk, specgate: Thunk, opts: InterleaveOptions = {}): Promise<Interleaved> {
  const count = opts.rounds ?? roundCount();
  if (!(count >= MIN_ROUNDS)) throw new RangeError(`a figure needs at least ${MIN_ROUNDS} rounds, asked ${count}`);
  const ratioOf = opts.ratio ?? ((b: number, s: number): number => s / b);
  for (let w = 0; w < (opts.warmup ?? 1); w++) {
    await bare();
    await specgate();
  }
  const rounds: Round[] = [];
  for (let r = 0; r < count; r++) {
    const bareFirst = r % 2 === 0;
    let b: number;
    let s: number;
    if (bareFirst) {
      b = await bare();
      s = await specgate();
    } else {
      s = await specgate();
      b = await bare();
    }
    const round: Round = { round: r + 1, bare: b, specgate: s, ratio: ratioOf(b, s), bareFirst };
    rounds.push(round);
    opts.onRound?.(round);
  }
  const ratios = rounds.map((x) => x.ratio);
  return { rounds, ratios, ratio: summarize(ratios), bare: summarize(rounds.map((x) => x.bare)), specgate: summarize(rounds.map((x) => x.specgate)) };
}

/** `round 3 (bare first)`: the head of a per-round line; `sides` names the two sides when they are not bare and specgate. */
export function roundHead(r: Round, sides: readonly [bare: string, specgate: string] = ['bare', 'specgate']): string {
  return `round ${r.round} (${r.bareFirst ? sides[0] : sides[1]} first)`;
}

/** `1.21 (min–max 1.06–1.33, IQR 1.12–1.25, 7 rounds)`, with `digits` decimals and an optional unit after the median (`0.61 s (min–max 0.55–0.70, ...)`). */
export function formatSummary(s: Summary, digits = 2, unit = ''): string {
  const f = (x: number): string => x.toFixed(digits);
  return `${f(s.median)}${unit} (min–max ${f(s.min)}–${f(s.max)}, IQR ${f(s.q1)}–${f(s.q3)}, ${s.n} rounds)`;
}

export interface FigureOptions {
  /** What the figure is, before its median; default `median ratio specgate/bare`. */
  name?: string;
  /** Decimals; default 2. */
  digits?: number;
  /** Appended to each number, e.g. ` s`. */
  unit?: string;
  /** Judged on the median; without it the figure is reported, not judged. */
  goal?: Goal;
}

/**
 * One figure's line: `label: median ratio specgate/bare = 1.21 (min–max 1.06–1.33, IQR 1.12–1.25,
 * 7 rounds) (goal <= 1.30) MET`.
 */
export function formatFigure(label: string, s: Summary, opts: FigureOptions = {}): string {
  const digits = opts.digits ?? 2;
  const unit = opts.unit ?? '';
  const head = `${label}: ${opts.name ?? 'median ratio specgate/bare'} = ${formatSummary(s, digits, unit)}`;
  if (!opts.goal) return `${head} (reported)`;
  return `${head} (goal ${opts.goal.op} ${opts.goal.value.toFixed(digits)}${unit}) ${meets(s.median, opts.goal) ? 'MET' : 'NOT MET'}`;
}

/** Of {@link interleaveAll}: every side's measures in round order, and their summary. */
export interface SideRounds {
  values: number[];
  summary: Summary;
}

/**
 * The order of the sides in round `r` (0-based) of {@link interleaveAll}: the names rotated by
 * one every second round, and reversed in odd rounds (A B C, C B A, B C A, A C B, C A B, B A C,
 * ...), so that every two rounds run each pair of sides once in each order. A rotation alone
 * would run a pair in the same order in two rounds of every three.
 */
export function roundOrder(names: readonly string[], r: number): string[] {
  const k = Math.floor(r / 2) % Math.max(1, names.length);
  const rotated = [...names.slice(k), ...names.slice(0, k)];
  return r % 2 === 1 ? rotated.reverse() : rotated;
}

/**
 * Runs several sides (each returning its own measure) round after round, after `warmup`
 * unrecorded rounds, in the order of {@link roundOrder} so a drift in machine load favours no
 * side over another; returns each side's measures and summary, by name.
 */
export async function interleaveAll(sides: Readonly<Record<string, Thunk>>, opts: Pick<InterleaveOptions, 'rounds' | 'warmup'> & { onRound?: (round: number, values: Record<string, number>) => void } = {}): Promise<Record<string, SideRounds>> {
  const count = opts.rounds ?? roundCount();
  if (!(count >= MIN_ROUNDS)) throw new RangeError(`a figure needs at least ${MIN_ROUNDS} rounds, asked ${count}`);
  const names = Object.keys(sides);
  for (let w = 0; w < (opts.warmup ?? 1); w++) for (const n of names) await (sides[n] as Thunk)();
  const values: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < count; r++) {
    const got: Record<string, number> = {};
    for (const n of roundOrder(names, r)) got[n] = await (sides[n] as Thunk)();
    for (const n of names) (values[n] as number[]).push(got[n] as number);
    opts.onRound?.(r + 1, got);
  }
  return Object.fromEntries(names.map((n) => [n, { values: values[n] as number[], summary: summarize(values[n] as number[]) }]));
}

/** Of {@link interleaveAll}'s result: `side`'s measure over `base`'s, round by round (NaN where either is missing). */
export function roundRatios(sides: Readonly<Record<string, SideRounds>>, side: string, base: string): number[] {
  const bases = sides[base]?.values ?? [];
  return (sides[side]?.values ?? []).map((x, i) => x / (bases[i] ?? Number.NaN));
}

/** CPU time (ms) of this process's reaped children and theirs, from /proc/self/stat; NaN without /proc. */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // the fields after the command name (in parentheses, which may hold spaces): cutime and cstime are fields 16 and 17
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    // USER_HZ is 100 on every Linux Node runs on
    return (ticks * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}
