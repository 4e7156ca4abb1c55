/**
 * `--side`: which side of each protocol a run judges. `--side server` applies to every suite
 * the run selects; `--side oauth=server` to one suite (for runs of several suites whose sides
 * have different names: `--side oauth=client,plugin=compiler`). Whether the suite declares the
 * side is checked once its files are loaded (src/engine/sides.ts), with its side names listed.
 */
import { SpecgateError } from '../src/errors.js';

/**
 * The side chosen for each suite of the run.
 * @throws SpecgateError `SG_USAGE` for two sides for one suite, or a suite the run does not select.
 */
export function parseSides(values: readonly string[], suites: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const explicit = new Set<string>();
  let every: string | undefined;
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 0) {
      if (every !== undefined && every !== value) throw new SpecgateError('SG_USAGE', `--side ${every} and --side ${value}: a run judges one side of a suite; give one, or name each suite (--side <suite>=<side>)`);
      every = value;
      continue;
    }
    const suite = value.slice(0, eq);
    const side = value.slice(eq + 1);
    if (!suite || !side) throw new SpecgateError('SG_USAGE', `--side ${value}: write a side name (--side server) or a suite and its side (--side oauth=server)`);
    if (!suites.includes(suite)) throw new SpecgateError('SG_USAGE', `--side ${value} names suite ${suite}, which this run does not select (it runs ${suites.join(', ')}); add it to --suite or drop it from --side`);
    if (explicit.has(suite) && out[suite] !== side) throw new SpecgateError('SG_USAGE', `--side gives suite ${suite} two sides (${out[suite] ?? ''} and ${side}); a run judges one side of a suite`);
    explicit.add(suite);
    out[suite] = side;
  }
  if (every !== undefined) for (const suite of suites) if (!explicit.has(suite)) out[suite] = every;
  return out;
}
