import type { CaseDef, LoadedSuite } from './model.js';
import type { Registry } from './registry.js';

/**
 * Whether a case of `selected` calls a check that opens pages in the shared browser
 * (`visitsPages`), against a live target: a recording is judged without one.
 */
export function casesVisitPages(selected: readonly { suite: LoadedSuite; cases: readonly CaseDef[] }[], registry: Registry, recorded: (suite: string) => boolean): boolean {
  return selected.some(({ suite, cases }) => !recorded(suite.name) && cases.some((c) => c.steps.some((step) => 'check' in step && registry.has('check', step.check) && registry.check(step.check).visitsPages === true)));
}
