import { resolve } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import { loadSuite } from '../src/engine/loader/suite-loader.js';
import type { SuiteNames } from '../src/engine/loader/suite-names.js';
import { ShapeShortError } from '../src/engine/loader/suite-shape.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { SelectionFlags } from './selection-flags.js';
import type { TextOut } from './text-out.js';

/**
 * `specgate validate <files>`: checks suite files, target profiles and baselines without running
 * anything. A file inside a known suite's folder is checked with its whole suite (references to
 * requirements and registered names included), and so is a case file kept outside whose cases
 * name their suite (`suite:`, as `run --cases` loads it); a profile is checked as a run would check it,
 * and every problem it has is listed at once (profile-check.ts). The checks of files outside
 * the suites' folders (validate-standalone.ts) are loaded only when such a file is given.
 * `names`: the suites' names as their kept shapes give them (validate-builtin.ts), for files
 * inside their folders only; by default the registry of `modules`. `noted` is told what was
 * found of each file, in order (validate-outcomes.ts keeps it).
 */
export async function validateCommand(
  modules: SuiteModule[],
  files: string[],
  out: TextOut = process.stdout,
  selection: SelectionFlags = {},
  names?: SuiteNames,
  noted?: (errors: readonly SpecgateError[]) => void,
): Promise<number> {
  const registry = names ?? new (await import('../src/engine/registry.js')).Registry(modules);
  const errors: SpecgateError[] = [];
  for (const file of files) {
    const abs = resolve(file);
    const owner = modules.find((m) => abs.startsWith(resolve(m.dir) + '/'));
    const before = errors.length;
    try {
      if (owner) loadSuite(owner, registry);
      else if (names) throw new ShapeShortError(`what ${file} is: it is in no suite's folder`);
      else (await import('./validate-standalone.js')).checkStandalone(file, modules, selection, out);
      out.write(`ok  ${file}\n`);
    } catch (e) {
      if (e instanceof SpecgateErrorList) errors.push(...e.errors);
      else if (e instanceof SpecgateError) errors.push(e);
      else throw e;
    }
    noted?.(errors.slice(before));
  }
  if (errors.length) throw new SpecgateErrorList(errors);
  return 0;
}
