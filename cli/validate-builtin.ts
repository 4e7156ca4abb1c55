import { resolve } from 'node:path';
import { fromRoot } from '../src/paths.js';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { recordingModule, shapeOfModule, ShapeShortError, type SetsAnswers } from '../src/engine/loader/suite-shape.js';
import { knownSuites } from './suites.js';
import { keepShape, keptShape, shapeStamp } from './suite-shapes.js';
import type { SelectionFlags } from './selection-flags.js';
import type { TextOut } from './text-out.js';
import { keepOutcomes, keptOutcomes, outcomesStamp, type Found } from './validate-outcomes.js';

/** `specgate validate` of files inside the folders of the built-in suites `names` (validateWithShapes). */
export function validateBuiltin(names: readonly string[], files: string[], out: TextOut = process.stdout, selection: SelectionFlags = {}): Promise<number> {
  const suites = names.map((name) => ({ name, dir: fromRoot('suites', name) }));
  return validateWithShapes(suites, () => knownSuites([], names), files, out, selection);
}

/**
 * `specgate validate` of files inside the folders of `suites`, each checked with its whole suite
 * as validate-command.ts checks it, at the least cost that gives the same output:
 * - what an earlier check of files of the same suites found, while neither their files nor the
 *   code have changed since (validate-outcomes.ts): nothing that checks a suite is loaded;
 * - else the files checked against names made from the suites' kept shapes (suite-shapes.ts),
 *   when every one is kept: no suite's code is loaded;
 * - else (or when a file needs what a shape does not hold, suite-shape.ts ShapeShortError) with
 *   the modules `load` gives, whose shapes are then kept for the next time.
 * What the last two find is kept for the first.
 */
export async function validateWithShapes(
  suites: readonly { name: string; dir: string }[],
  load: () => Promise<SuiteModule[]>,
  files: string[],
  out: TextOut = process.stdout,
  selection: SelectionFlags = {},
): Promise<number> {
  const owners = files.map((f) => suites.find((s) => resolve(f).startsWith(resolve(s.dir) + '/'))?.name ?? '');
  const dirs = suites.map((s) => s.dir);
  const kept = owners.every(Boolean) ? keptOutcomes(owners) : undefined;
  if (kept) return replay(files, kept, out);
  // stamped before anything is read: a file written meanwhile leaves what is kept unused
  const stamp = outcomesStamp(dirs);
  const found: Found[][] = [];
  const noted = (errors: readonly SpecgateError[]): void => void found.push(errors.map((e) => [e.code, e.message]));
  const { validateCommand } = await import('./validate-command.js');
  const shapes = suites.map((s) => keptShape(s.name, s.dir));
  let code: number | undefined;
  if (shapes.every((s) => s !== undefined)) {
    // held back until the check is done: a check that needs the code starts over
    const held: string[] = [];
    try {
      const names = new (await import('../src/engine/loader/shape-names.js')).ShapeNames(shapes);
      code = await validateCommand(names.suiteModules(), files, { write: (t: string) => held.push(t) }, selection, names, noted);
    } catch (e) {
      if (!(e instanceof ShapeShortError)) {
        if (held.length) out.write(held.join(''));
        if (e instanceof SpecgateError && owners.every(Boolean) && found.length === files.length) keepOutcomes(owners, dirs, stamp, found);
        throw e;
      }
      found.length = 0;
    }
    if (code !== undefined) {
      if (held.length) out.write(held.join(''));
      if (owners.every(Boolean)) keepOutcomes(owners, dirs, stamp, found);
      return code;
    }
  }
  // stamped before the code is imported: a file written meanwhile leaves a shape that is not used
  const stamps = suites.map((s) => shapeStamp(s.dir));
  // what computed `sets` answer during the check is kept with the shapes
  const answers = new Map<string, SetsAnswers>();
  const modules = (await load()).map((m) => {
    const mine: SetsAnswers = new Map();
    answers.set(m.name, mine);
    return recordingModule(m, mine);
  });
  try {
    code = await validateCommand(modules, files, out, selection, undefined, noted);
    if (owners.every(Boolean)) keepOutcomes(owners, dirs, stamp, found);
    return code;
  } catch (e) {
    if (e instanceof SpecgateError && owners.every(Boolean) && found.length === files.length) keepOutcomes(owners, dirs, stamp, found);
    throw e;
  } finally {
    const { API_CHECKS } = await import('../src/engine/api/verifiers/index.js');
    for (const m of modules) {
      const i = suites.findIndex((s) => s.name === m.name && s.dir === m.dir);
      const shape = i >= 0 ? shapeOfModule(m, API_CHECKS, answers.get(m.name)) : undefined;
      if (shape) keepShape(shape, stamps[i] as string);
    }
  }
}

/** Prints what was found of each file as validate-command.ts does: `ok` for a file with no problem, then every problem at once. */
function replay(files: readonly string[], found: readonly Found[][], out: TextOut): number {
  const errors: SpecgateError[] = [];
  files.forEach((file, i) => {
    const problems = found[i] ?? [];
    if (problems.length === 0) out.write(`ok  ${file}\n`);
    for (const [code, message] of problems) errors.push(new SpecgateError(code, message));
  });
  if (errors.length) throw new SpecgateErrorList(errors);
  return 0;
}
