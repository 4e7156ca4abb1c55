import type { SuiteModule } from '../src/engine/suite-module.js';
import { builtinSuiteNames } from '../suites/index.js';
import { keptListings } from './list-cache.js';
import { writeListings, type ListFlags, type SuiteListing } from './suite-listing.js';

/**
 * `specgate list` (list-loaded.ts says what it shows). A listing of built-in suites that no flag
 * narrows or extends is shown as kept by the last complete load of the same suites, while their
 * files and specgate's code are as they were then (list-cache.ts): then no suite's code is
 * loaded, nor the engine that loads suites. Otherwise `suites` loads the suites' modules and the
 * suites are loaded and checked completely.
 * @param builtinOnly whether `suites` gives only built-in suites (no `--suite-module`).
 */
export async function listCommand(suites: () => Promise<SuiteModule[]>, opts: ListFlags, builtinOnly: boolean, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const names = opts.suite?.length ? opts.suite : builtinSuiteNames;
  const plain = builtinOnly && !opts.vars && !opts.trace && !opts.passive && !opts.cases?.length && !opts.part?.length && !opts.requirement?.length;
  // the suites loaded together: those named, in the order the built-in suites are listed
  const together = plain && names.every((n) => builtinSuiteNames.includes(n)) ? builtinSuiteNames.filter((n) => names.includes(n)) : undefined;
  const kept = together && keptListings(together);
  if (kept) {
    const byName = new Map(kept.map((l) => [l.name, l]));
    writeListings(names.map((n) => byName.get(n) as SuiteListing), opts.json === true, out);
    return 0;
  }
  return (await import('./list-loaded.js')).listLoaded(await suites(), opts, out, together);
}
