import { suite as demoSuite } from '../fixtures/demo/suite.js';
import { loadedSuite } from '../helpers/suite-facts.js';

/** The demo suite (test/fixtures/demo/) as the engine loads it. */
export const DEMO = loadedSuite(demoSuite);

/**
 * The statuses a correct greeting service earns when time can pass (virtual clock or hook), read
 * from the suite: every requirement a case covers passes, an excluded one is excluded, one no
 * case covers is untested.
 */
export const CONFORMANT: Readonly<Record<string, string>> = Object.fromEntries(
  DEMO.requirements.map((r) => [r.id, r.excluded !== undefined ? 'excluded' : DEMO.cases.some((c) => c.requirements.includes(r.id)) ? 'passed' : 'untested']),
);
