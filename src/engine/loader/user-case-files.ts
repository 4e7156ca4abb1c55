/**
 * Case files kept outside a suite's folder: the regression cases a failed run writes, and cases
 * a team writes by hand in the same format, run together with an installed suite whose folder
 * is not theirs to add to. Where such a file lies says nothing of its suite, so each of its
 * cases names one (`suite:`); the suite's loader then checks them as its own cases.
 */
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { nearestNames } from '../near-names.js';
import { display, readValid } from './suite-loader.js';

/** Case files kept outside the suites, sorted by the suites their cases name. */
export interface SortedCaseFiles {
  /** Per suite: the files holding at least one of its cases, in the order given. */
  bySuite: Map<string, string[]>;
  /** Files that cannot be read or break the case schema, and cases naming no suite or an unknown one. */
  problems: SpecgateError[];
}

/**
 * Reads each file (YAML and the case schema, file:line:column as for a suite's own files) and
 * sorts it under the suites its cases name. A file that breaks the schema goes to no suite, and
 * a case naming no suite or an unknown one to none: their problems are reported once, here.
 */
export function sortCaseFiles(files: readonly string[], suites: readonly string[], cwd = process.cwd()): SortedCaseFiles {
  const bySuite = new Map<string, string[]>();
  const problems: SpecgateError[] = [];
  for (const file of files) {
    const shown = display(file, cwd);
    let items: { suite?: unknown }[];
    let locate: (path: (string | number)[]) => { line: number; column: number };
    try {
      const src = readValid(file, shown, 'cases');
      items = src.data as { suite?: unknown }[];
      locate = src.locate;
    } catch (e) {
      if (e instanceof SpecgateErrorList) problems.push(...e.errors);
      else if (e instanceof SpecgateError) problems.push(e);
      else throw e;
      continue;
    }
    const named = new Set<string>();
    items.forEach((item, i) => {
      const suite = item.suite;
      if (typeof suite !== 'string') {
        const at = locate([i]);
        problems.push(new SpecgateError('SG_SUITE_SCHEMA', `${shown}:${at.line}:${at.column}: this case names no suite; a case kept outside a suite's folder says which suite it belongs to: add suite: <name> (${suites.join(', ')})`));
      } else if (!suites.includes(suite)) {
        const at = locate([i, 'suite']);
        const near = nearestNames(suite, suites).map((n) => `"${n}"`);
        problems.push(new SpecgateError('SG_SUITE_UNKNOWN', `${shown}:${at.line}:${at.column}: no suite "${suite}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; the suites are ${suites.join(', ')}`));
      } else named.add(suite);
    });
    for (const suite of named) bySuite.set(suite, [...(bySuite.get(suite) ?? []), file]);
  }
  return { bySuite, problems };
}
