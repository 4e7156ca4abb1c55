import { match } from '../../checks/matchers.js';
import { SpecgateError } from '../../errors.js';
import type { CheckContext } from './context.js';

/** How a case whose precondition does not hold ends when no rule owns the precondition. */
export type PreconditionOtherwise = 'error' | 'skip' | 'not-applicable';

/** A value a case rests on, and what it must be for the case to judge anything. */
export interface Precondition {
  /** The value, usually a variable an earlier step set. */
  value: unknown;
  /** The matcher it must meet, in the vocabulary of `expect:`. */
  matches: unknown;
  /** What does not hold when it does not match, for the case's reason. */
  because: string;
  /** The rule the precondition rests on: the case ends blocked by it (the engine fails it when the case judges it). */
  owner?: string | undefined;
  /** How the case ends otherwise: errored (the default), skipped, or not applicable (which comes before an owner). */
  otherwise?: PreconditionOtherwise | undefined;
}

/** What of the check context a precondition uses. */
export type PreconditionContext = Pick<CheckContext, 'requirements' | 'observed' | 'blocked' | 'skip' | 'notApplicable'>;

/**
 * Holds a case to a precondition. The check observes nothing of the case's requirements (a
 * precondition met is no evidence for them), and when the value does not match, the case
 * cannot judge them: it ends not applicable (`otherwise: 'not-applicable'`: the target has no
 * such feature), blocked by the owner, skipped (`otherwise: 'skip'`: something the case needs
 * is missing) or errored with SG_TARGET_PROTOCOL. Never a pass, and never a failure of a rule
 * the case merely rests on.
 */
export function holdPrecondition(ctx: PreconditionContext, p: Precondition): void {
  for (const id of ctx.requirements) ctx.observed(id, 0);
  const problems = match(p.value, p.matches);
  if (!problems.length) return;
  const why = `${p.because} (${problems.map((m) => `${m.path} ${m.message}`).join('; ')})`;
  if (p.otherwise === 'not-applicable') ctx.notApplicable(why);
  // the owner fails first when the case judges it (and has not failed it already)
  if (p.owner !== undefined) ctx.blocked(p.owner, why);
  if (p.otherwise === 'skip') ctx.skip(`cannot judge: ${why}`);
  throw new SpecgateError('SG_TARGET_PROTOCOL', `cannot judge: ${why}`);
}
