/**
 * "Did you mean" for names given on the command line: a typo in a gate's selection must stop the
 * run with the names that were probably meant, not select nothing and pass.
 */
import { nearestNames } from '../src/engine/near-names.js';

/** ` (did you mean "a" or "b"?)`, or '' when nothing is near. */
export function didYouMean(wanted: string, known: readonly string[]): string {
  const near = nearestNames(wanted, known);
  if (!near.length) return '';
  const quoted = near.map((n) => `"${n}"`);
  return ` (did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) ?? ''}` : quoted[0]}?)`;
}
