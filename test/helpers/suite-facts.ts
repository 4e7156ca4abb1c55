import type { CaseDef, LoadedSuite } from '../../src/engine/model.js';
import { loadSuites } from '../../src/engine/run.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';

/**
 * Facts a test expects that the suite files already state (a cascade, a selection of cases),
 * read from the suite as the engine loads it instead of copied into the test, so a case added
 * or an `assumes:` changed is expected without a second list to keep.
 */

const loaded = new Map<SuiteModule, LoadedSuite>();

/** The suite of `module`, through the engine's loader, loaded once per module in this process. */
export function loadedSuite(module: SuiteModule): LoadedSuite {
  const known = loaded.get(module);
  if (known) return known;
  const suite = loadSuites([module], [module.name]).suites[0];
  if (!suite) throw new Error(`suite ${module.name} did not load`);
  loaded.set(module, suite);
  return suite;
}

/**
 * Whether a case rests on `root`: it `assumes:` it, or one of its steps is owned by it
 * (`precondition: root`). When `root` fails, what such a case would fail is reported blocked
 * by `root` instead.
 */
export function restsOn(c: CaseDef, root: string): boolean {
  return (c.assumes ?? []).includes(root) || c.steps.some((s) => s.precondition === root);
}

/** The cases among `cases` that rest on `root`, by ID. */
export function casesRestingOn(cases: readonly CaseDef[], root: string): string[] {
  return cases.filter((c) => restsOn(c, root)).map((c) => c.id);
}

/**
 * The requirements that rest wholly on `root` as the suite files say: every case among `cases`
 * that covers one rests on `root` (a requirement another case judges without it is not among
 * them, nor is `root`). Sorted.
 */
export function restingOn(cases: readonly CaseDef[], root: string): string[] {
  const by = new Map<string, CaseDef[]>();
  for (const c of cases) for (const id of c.requirements) by.set(id, [...(by.get(id) ?? []), c]);
  return [...by].filter(([id, covering]) => id !== root && covering.every((c) => restsOn(c, root))).map(([id]) => id).sort();
}
