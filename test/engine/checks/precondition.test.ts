import { describe, expect, it } from 'vitest';
import { holdPrecondition, type Precondition, type PreconditionContext } from '../../../src/engine/checks/precondition.js';
import { SpecgateError } from '../../../src/errors.js';

/** How a precondition ended the case, as the fake context below records it. */
class Ended extends Error {
  constructor(
    readonly how: string,
    readonly detail: string,
  ) {
    super(`${how}: ${detail}`);
  }
}

/** A context of a case judging `requirements` that records what a precondition observed and how it ended the case. */
function probe(requirements: string[]): { ctx: PreconditionContext; observed: [string | undefined, number | undefined][] } {
  const observed: [string | undefined, number | undefined][] = [];
  const ctx: PreconditionContext = {
    requirements,
    observed: (requirement, count) => void observed.push([requirement, count]),
    blocked: (requirement, reason) => {
      throw new Ended(`blocked by ${requirement}`, reason);
    },
    skip: (reason) => {
      throw new Ended('skipped', reason);
    },
    notApplicable: (reason) => {
      throw new Ended('not applicable', reason);
    },
  };
  return { ctx, observed };
}

/** How `holdPrecondition` ended the case: 'ran' when it let the case go on. */
function outcome(p: Precondition, requirements = ['R-1']): string {
  try {
    holdPrecondition(probe(requirements).ctx, p);
    return 'ran';
  } catch (e) {
    if (e instanceof Ended) return e.message;
    if (e instanceof SpecgateError) return `${e.code}: ${e.message}`;
    throw e;
  }
}

const noToken = { value: undefined, matches: { $type: 'string' }, because: 'no access_token' };

describe('holdPrecondition', () => {
  it('lets a matching value through, observing nothing of the case\'s requirements', () => {
    const { ctx, observed } = probe(['R-1', 'R-2']);
    holdPrecondition(ctx, { value: 'code', matches: { $type: 'string' }, because: 'no code' });
    expect(observed).toEqual([['R-1', 0], ['R-2', 0]]);
  });

  it('ends the case errored with SG_TARGET_PROTOCOL by default, saying what did not hold and why', () => {
    expect(outcome(noToken)).toMatch(/^SG_TARGET_PROTOCOL: cannot judge: no access_token \(\$ expected a string/);
  });

  it('ends the case blocked by the owner, skipped or not applicable, as asked', () => {
    expect(outcome({ ...noToken, owner: 'R-OWNER' })).toMatch(/^blocked by R-OWNER: no access_token \(/);
    expect(outcome({ ...noToken, otherwise: 'skip' })).toMatch(/^skipped: cannot judge: no access_token \(/);
    expect(outcome({ ...noToken, otherwise: 'not-applicable' })).toMatch(/^not applicable: no access_token \(/);
    // an owner comes before a skip; not applicable (the target has no such feature) before an owner
    expect(outcome({ ...noToken, owner: 'R-OWNER', otherwise: 'skip' })).toMatch(/^blocked by R-OWNER: /);
    expect(outcome({ ...noToken, owner: 'R-OWNER', otherwise: 'not-applicable' })).toMatch(/^not applicable: /);
  });
});
