import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { collationString } from '../generators/collation/collation-string.js';
import { collatorFor } from '../reference/collation/comparator/index.js';
import { prepareComparator } from '../reference/collation/comparator/index.js';
import { judgeFigure } from './goals.js';
import { formatFigure, interleave, roundCount, summarize } from './rounds.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

/**
 * Sorting 100,000 generated strings (spec 001, F) with the reference comparator, side by side
 * with Node's own `Intl.Collator` given the nearest options, per collation document. Every
 * document has a goal of at most 2x: those Intl can express (locale and variant, strength 1..3 as
 * sensitivity, caseLevel at strength 1, caseFirst, numericOrdering, alternate shifted as
 * ignorePunctuation) are handed to Intl, and for the others (strength 4 and 5, caseLevel at
 * strength 2, maxVariable, backwards on a locale without it, normalization off) Intl decides the
 * levels it shares with the document and the rest is left to ICU4X or the secondary-direction
 * layer. For those Intl is a scale, not the same answer. Each figure is the median of the
 * per-round ratios of interleaved rounds (bench/rounds.ts), judged on wall time; the same ratio
 * of CPU time is printed beside it.
 */
const N = Number(process.env['BENCH_COLLATION_N'] ?? 100_000);
/** `beyond` runs only the documents Intl cannot express, `intl` only those it can; unset, all. */
const ONLY = process.env['BENCH_COLLATION_ONLY'];
const SEED = 4242;
const GOAL = 2;

interface Case {
  document: Record<string, unknown>;
  /** Intl's locale and options nearest to the document. */
  intl: [string, Intl.CollatorOptions];
  /** Whether Intl expresses the document exactly (the comparator hands it to Intl). */
  exact: boolean;
}

const CASES: Case[] = [
  { document: { locale: 'en' }, intl: ['en', {}], exact: true },
  { document: { locale: 'en', strength: 1 }, intl: ['en', { sensitivity: 'base' }], exact: true },
  { document: { locale: 'en', strength: 2 }, intl: ['en', { sensitivity: 'accent' }], exact: true },
  { document: { locale: 'en', strength: 1, caseLevel: true }, intl: ['en', { sensitivity: 'case' }], exact: true },
  { document: { locale: 'en', caseFirst: 'upper' }, intl: ['en', { caseFirst: 'upper' }], exact: true },
  { document: { locale: 'en', numericOrdering: true }, intl: ['en', { numeric: true }], exact: true },
  { document: { locale: 'en', alternate: 'shifted' }, intl: ['en', { ignorePunctuation: true }], exact: true },
  { document: { locale: 'de@collation=phonebook' }, intl: ['de-u-co-phonebk', {}], exact: true },
  { document: { locale: 'fr_CA' }, intl: ['fr-CA', {}], exact: true },
  { document: { locale: 'zh@collation=unihan' }, intl: ['zh-u-co-unihan', {}], exact: true },
  { document: { locale: 'en', normalization: true }, intl: ['en', {}], exact: true },
  { document: { locale: 'en', strength: 4, alternate: 'shifted' }, intl: ['en', { ignorePunctuation: true }], exact: false },
  { document: { locale: 'en', strength: 5 }, intl: ['en', {}], exact: false },
  { document: { locale: 'en', strength: 2, caseLevel: true }, intl: ['en', { sensitivity: 'variant' }], exact: false },
  { document: { locale: 'en', alternate: 'shifted', maxVariable: 'space' }, intl: ['en', { ignorePunctuation: true }], exact: false },
  { document: { locale: 'en', backwards: true }, intl: ['en', {}], exact: false },
  { document: { locale: 'en', normalization: false }, intl: ['en', {}], exact: false },
];

/**
 * One sort of a fresh copy: its wall time in ms is returned, its CPU time (this process's user and
 * system time, which other work on a loaded machine stretches far less) pushed onto `cpu`.
 */
function timeSort(strings: readonly string[], compare: (a: string, b: string) => number, cpu: number[]): number {
  const copy = strings.slice();
  const c = process.cpuUsage();
  const t = performance.now();
  copy.sort(compare);
  const wall = performance.now() - t;
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  return wall;
}

export async function run(): Promise<void> {
  const strings = fc.sample(collationString(6), { numRuns: N, seed: SEED });
  const warm = strings.slice(0, 2000);
  const misses: string[] = [];
  const rounds = roundCount();
  console.log(`sort ${N} generated strings, ${rounds} interleaved rounds per document, medians: reference comparator vs Intl.Collator (nearest options)`);
  const cases = CASES.filter((c) => (ONLY === 'beyond' ? !c.exact : ONLY === 'intl' ? c.exact : true));
  for (const c of cases) {
    const ours = collatorFor(c.document);
    const intl = new Intl.Collator(...c.intl);
    const oursCompare = (a: string, b: string): number => ours.compare(a, b);
    // warm both up (JIT, collator data) before timing
    warm.slice().sort(oursCompare);
    warm.slice().sort(intl.compare);
    // Intl in the place of the bare side, taking turns at going first so neither always runs on a warmer cache
    const cpu = { intl: [] as number[], ours: [] as number[] };
    const result = await interleave(
      () => timeSort(strings, intl.compare, cpu.intl),
      () => timeSort(strings, oursCompare, cpu.ours),
      { rounds, warmup: 0 },
    );
    const cpuRatios = summarize(cpu.ours.map((t, i) => t / (cpu.intl[i] ?? Number.NaN)));
    const ratio = result.ratio.median;
    if (ratio > GOAL) misses.push(JSON.stringify(c.document));
    const label = `  ${JSON.stringify(c.document).padEnd(62)} reference ${result.specgate.median.toFixed(0).padStart(6)} ms  Intl ${result.bare.median.toFixed(0).padStart(6)} ms`;
    const how = c.exact ? 'Intl' : 'levels beyond Intl';
    console.log(judgeFigure(`${label} (${how})`, result.ratio, { name: 'median ratio reference/Intl', goal: { op: '<=', value: GOAL } }));
    console.log(formatFigure('    CPU time', cpuRatios, { name: 'median ratio reference/Intl' }));
  }
  console.log(misses.length ? `documents over ${GOAL}x (median): ${misses.join(', ')}` : `every document within ${GOAL}x (median)`);
}
