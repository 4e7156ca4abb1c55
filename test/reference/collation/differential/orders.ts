/**
 * Comparing two collators' orders: the pairs to ask about (neighbours in one side's sorted
 * list, and a fixed spread of other pairs), and the pairs where the signs of compare() differ,
 * each checked against the known-differences list.
 */
import type { Collation } from '../../../../reference/collation/types.js';
import type { CollationDocument } from './documents.js';
import { KNOWN_DIFFERENCES, type Against, type KnownDifference } from './known-differences.js';

export type Pair = readonly [string, string];

/** Neighbours in a sorted list: the pairs a correct order depends on. */
export function neighbours(sorted: readonly string[]): Pair[] {
  const out: Pair[] = [];
  for (let i = 1; i < sorted.length; i++) out.push([sorted[i - 1] ?? '', sorted[i] ?? '']);
  return out;
}

/** `count` pairs spread over the list (deterministic), so strings far apart are compared too. */
export function spread(strings: readonly string[], count: number): Pair[] {
  const out: Pair[] = [];
  const n = strings.length;
  for (let k = 0; k < count && n > 1; k++) out.push([strings[(k * 7919) % n] ?? '', strings[(k * 104_729 + 13) % n] ?? '']);
  return out;
}

export interface Difference {
  document: CollationDocument;
  a: string;
  b: string;
  ours: number;
  theirs: number;
  /** The known-differences entry that explains it, if one does. */
  known: KnownDifference | undefined;
}

/** The pairs whose signs differ, each with the known difference that explains it (if any). */
export function differences(
  against: Against,
  document: CollationDocument,
  collation: Collation,
  pairs: readonly Pair[],
  ours: readonly number[],
  theirs: readonly number[],
): Difference[] {
  const out: Difference[] = [];
  pairs.forEach(([a, b], i) => {
    const o = Math.sign(ours[i] ?? NaN);
    const t = Math.sign(theirs[i] ?? NaN);
    if (o === t) return;
    const known = KNOWN_DIFFERENCES.find((k) => k.against.includes(against) && k.applies(collation, a, b));
    out.push({ document, a, b, ours: o, theirs: t, known });
  });
  return out;
}

/** `"a"` with its code points, so invisible marks and look-alikes show in a failure message. */
export function shown(s: string): string {
  const cps = [...s].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return `${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)} [${cps.length > 12 ? `${cps.slice(0, 12).join(' ')} …${cps.length} code points` : cps.join(' ')}]`;
}

/** One line per unexplained difference, for a failure message. */
export function report(diffs: readonly Difference[], theirName: string, limit = 25): string {
  const lines = diffs
    .slice(0, limit)
    .map((d) => `${JSON.stringify(d.document)}: compare(${shown(d.a)}, ${shown(d.b)}) ours ${d.ours}, ${theirName} ${d.theirs}`);
  return `${diffs.length} unexplained difference(s) from ${theirName}:\n${lines.join('\n')}${diffs.length > limit ? '\n…' : ''}`;
}
