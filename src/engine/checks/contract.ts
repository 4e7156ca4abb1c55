import type { Exchange } from '../model.js';
import type { CheckContext } from './context.js';

/**
 * The contract of a typed check: what it takes, what it may judge, what it sets. The loader
 * checks every `check:` step against it before anything runs, so a misspelt argument, a
 * requirement the check cannot judge or a variable nothing sets is a load error with
 * file:line:column (exit 2), never an errored case.
 */
export interface CheckDefinition<A = Record<string, unknown>> {
  /** One line: what the check does (shown by `specgate list --checks`). */
  description: string;
  /**
   * JSON Schema (draft-07) of the step's `with:`. A string that is one `${...}` expression
   * stands for a value of any type at load time; the resolved arguments are checked again
   * before the check runs.
   */
  args: object;
  /**
   * The requirement IDs this check can judge. `'case'`: whatever the case lists, or only the
   * one named by the `requirement` argument when the step gives it.
   */
  judges: readonly string[] | 'case';
  /** Variables the check sets for the steps after it (a list, or computed from the arguments). */
  sets?: readonly string[] | ((args: A) => readonly string[]);
  /**
   * True for a check that opens pages in the shared headless browser: a run with a case that
   * calls it starts the browser at its beginning, so the first visit does not wait for it.
   */
  visitsPages?: boolean;
  run(ctx: CheckContext, args: A): Promise<void>;
}

/** A check as the registry holds it (its argument type erased). */
export type TypedCheck = CheckDefinition<never>;

/** Declares a typed check; the identity, typed so `run` sees its own argument shape. */
export function defineCheck<A>(def: CheckDefinition<A>): TypedCheck {
  return def as unknown as TypedCheck;
}

/** The variables a check step sets, given its (unresolved) arguments. */
export function checkSets(check: TypedCheck, args: Record<string, unknown>): readonly string[] {
  const sets = check.sets;
  if (!sets) return [];
  return typeof sets === 'function' ? (sets as (a: Record<string, unknown>) => readonly string[])(args) : sets;
}

// ---------------------------------------------------------------- judged checks

/**
 * What a judge concludes from one observed run: pass (on how many things), fail (naming what it
 * saw), that it had nothing to judge (untested, with why), or that a rule it rests on is broken
 * (blocked by it). A requirement that could not be judged never passes.
 */
export type Verdict =
  /** Holds; `observed`: how many things it judged (records, requests, outputs), 1 when not said. */
  | { ok: true; observed?: number }
  | { ok: false; message: string; expected?: unknown; actual?: unknown; exchange?: Exchange }
  /** Nothing to judge (the run never reached what it looks at, no input of its kind): untested with the reason. */
  | { unjudged: string }
  /** It cannot be judged because another rule it rests on does not hold: blocked by that rule. */
  | { blockedBy: string; reason: string; exchange?: Exchange }
  /** The rule does not apply to this target (a mode it lacks): the case ends not applicable. */
  | { notApplicable: string };

/** Judges one requirement from an observation; `args` are the step's arguments (for values only a judge reads). */
export type Judge<R, A = unknown> = (observed: R, args: A) => Verdict;

export const PASS: Verdict = Object.freeze({ ok: true });

export function fail(message: string, more: { expected?: unknown; actual?: unknown; exchange?: Exchange } = {}): Verdict {
  return { ok: false, message, ...more };
}

export function unjudged(reason: string): Verdict {
  return { unjudged: reason };
}

/** Holds, judged on `count` things (records, requests, outputs); 0 is nothing to judge, with `none` as the reason. */
export function observedPass(count: number, none: string): Verdict {
  return count > 0 ? { ok: true, observed: count } : { unjudged: none };
}

export function blockedBy(requirement: string, reason: string, exchange?: Exchange): Verdict {
  return { blockedBy: requirement, reason, ...(exchange ? { exchange } : {}) };
}

export function notApplicable(reason: string): Verdict {
  return { notApplicable: reason };
}

/**
 * A check that observes once and judges many requirements from that one observation: the engine
 * runs `observe`, then the judge of every requirement the case lists. Its contract's `judges`
 * are the keys of `judgeBy`.
 */
export interface JudgedCheckDefinition<A, R> {
  description: string;
  args: object;
  sets?: readonly string[] | ((args: A) => readonly string[]);
  /** See {@link CheckDefinition.visitsPages}. */
  visitsPages?: boolean;
  /** Runs the target once and returns what was seen. */
  observe(ctx: CheckContext, args: A): Promise<R>;
  /** One judge per requirement this check can judge. */
  judgeBy: Readonly<Record<string, Judge<R, A>>>;
  /**
   * Cases of one suite run that call this check with the same arguments share one observation
   * (the first runs `observe`, the others wait for it and judge what it saw). Only for an
   * `observe` that records no failures and whose result depends on nothing but its arguments.
   */
  share?: boolean;
  /**
   * With `share`: what the observation depends on (default: the arguments). Leave out arguments
   * only the judges read, so cases that differ only in those still share; add what `observe`
   * reads from the context (a variable naming the target), so cases that differ there do not.
   */
  shareBy?: (args: A, ctx: CheckContext) => unknown;
}
