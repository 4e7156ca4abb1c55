import { getPath } from '../json-path.js';
import type { Mismatch } from '../../checks/matchers.js';
import type { BlockedBy, Exchange, Step } from '../model.js';
import { mismatchText, recordMismatches, type Observation } from './observation.js';
import type { StepScope } from './step-scope.js';
import { SkipCase } from './time.js';

/**
 * Thrown inside a case to end it blocked: a rule it relies on does not hold (a precondition
 * step's owner, or what a typed check found with `ctx.blocked`), so nothing after that point can
 * be judged. The case is skipped, and its requirements are blocked by that rule unless another
 * case judged them. A skip of its own kind, so every place that lets a skip through lets this
 * through too.
 */
export class BlockedCase extends SkipCase {
  constructor(readonly by: BlockedBy) {
    super(`blocked by ${by.requirement}: ${by.message}`);
  }
}

/**
 * What the `$each` matchers of one expectation met: how many of them ran, how many items they
 * judged, and the paths of the empty lists. The matchers fill it in (MatchContext.each).
 */
export interface EachTally {
  calls: number;
  items: number;
  empty: string[];
}

export function eachTally(): EachTally {
  return { calls: 0, items: 0, empty: [] };
}

/** How many observations an expectation made of what it judges, or why it made none. */
export type Evidence = { count: number } | { none: string };

/**
 * The evidence of one expectation (docs/design/verdict-trust.md): the items at its `evidence:`
 * path; or the items its `$each` matchers judged (none when they all met empty lists); none when
 * the body it matched is an empty list; otherwise one observation.
 */
export function evidenceOf(obs: Observation, expect: { evidence?: string; body?: unknown; schema?: unknown }, tally: EachTally): Evidence {
  if (expect.evidence !== undefined) {
    const value = getPath(obs.data, expect.evidence);
    if (Array.isArray(value)) return value.length ? { count: value.length } : { none: `the answer held no items at ${expect.evidence}` };
    if (value === undefined || value === null) return { none: `the answer held nothing at ${expect.evidence}` };
    return { count: 1 };
  }
  // the records a `$each` judged are the observations; none at all is nothing judged
  if (tally.calls > 0) return tally.items > 0 ? { count: tally.items } : { none: `the answer held no items at ${[...new Set(tally.empty)].join(', ')}` };
  if ((expect.body !== undefined || expect.schema !== undefined) && Array.isArray(obs.data) && obs.data.length === 0) return { none: 'the answer was an empty list' };
  return { count: 1 };
}

/**
 * Records what one expectation found: its mismatches as failures and its evidence as
 * observations of the requirement it judges (the case's, when it names none). A precondition
 * step whose expectation does not hold ends the case blocked by its owner instead; when the case
 * lists the owner, the owner fails and the case's other requirements are blocked.
 */
export function settleExpectation(
  run: StepScope,
  step: Step,
  mismatches: Mismatch[],
  expect: { requirement?: string; evidence?: string; body?: unknown; schema?: unknown },
  obs: Observation,
  tally: EachTally,
  counts = true,
): void {
  const owner = step.precondition;
  if (owner !== undefined && mismatches.length) {
    if (run.failsFirst(owner)) recordMismatches(run, mismatches, owner, obs);
    throw new BlockedCase({ requirement: owner, message: `a step the case rests on did not hold: ${mismatches.map(mismatchText).join('; ')}`, exchange: obs.exchange() });
  }
  recordMismatches(run, mismatches, expect.requirement, obs);
  // a precondition step that held set the case up: it judged its owner (when the case lists it), nothing else
  if (!counts || (owner !== undefined && !run.caseRequirements.includes(owner))) return;
  if (owner !== undefined) {
    run.observe(owner, 1);
    return;
  }
  const found = evidenceOf(obs, expect, tally);
  if ('count' in found) run.observe(expect.requirement, found.count);
  else run.observe(expect.requirement, 0, found.none);
}

/** A precondition that could not even be acted on (a condition never reached): the case is blocked by its owner. */
export function blockedStep(run: StepScope, step: Step, message: string, exchange?: Exchange): void {
  const owner = step.precondition;
  if (owner === undefined) return;
  throw new BlockedCase({ requirement: owner, message, ...(exchange ? { exchange } : {}) });
}
