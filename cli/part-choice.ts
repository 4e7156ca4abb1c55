/**
 * `--part`: which parts of a suite a run judges (src/engine/selection.ts). `--part platform`
 * applies to every suite the run selects; `--part events=platform` (or `events:platform`) to one
 * suite, as `--side` is written. Several parts add up. Whether the suite declares the part is
 * checked once its files are loaded, with its parts listed.
 */
import { SpecgateError } from '../src/errors.js';

/**
 * The parts chosen for each suite of the run.
 * @throws SpecgateError `SG_USAGE` for an empty name, or a suite the run does not select.
 */
export function parseParts(values: readonly string[], suites: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (suite: string, part: string): void => {
    const parts = (out[suite] ??= []);
    if (!parts.includes(part)) parts.push(part);
  };
  for (const value of values) {
    const at = value.search(/[=:]/);
    if (at < 0) {
      for (const suite of suites) add(suite, value);
      continue;
    }
    const suite = value.slice(0, at);
    const part = value.slice(at + 1);
    if (!suite || !part) throw new SpecgateError('SG_USAGE', `--part ${value}: write a part name (--part platform) or a suite and its part (--part events=platform)`);
    if (!suites.includes(suite)) throw new SpecgateError('SG_USAGE', `--part ${value} names suite ${suite}, which this run does not select (it runs ${suites.join(', ')}); add it to --suite or drop it from --part`);
    add(suite, part);
  }
  return out;
}
