import type { Exchange } from '../../../src/engine/model.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';

/**
 * How the client-side checks turn one observed run into verdicts: each requirement a case lists
 * has a judge; a judge passes, fails (naming what it saw), or says it could not judge (the run
 * never reached what it looks at). A requirement that could not be judged must not pass: the
 * case then ends with an error naming it, after the failures it did find are recorded.
 */
export type Verdict =
  | { ok: true }
  | { ok: false; message: string; expected?: unknown; actual?: unknown; exchange?: Exchange }
  | { unjudged: string };

export type Failed = Extract<Verdict, { ok: false }>;

export type Judge<R> = (run: R) => Verdict;

export const PASS: Verdict = { ok: true };

export function fail(message: string, more: { expected?: unknown; actual?: unknown; exchange?: Exchange } = {}): Verdict {
  return { ok: false, message, ...more };
}

export function unjudged(reason: string): Verdict {
  return { unjudged: reason };
}

export function isFailed(v: Verdict): v is Failed {
  return 'ok' in v && !v.ok;
}

/** The failure a failed verdict records against requirement `id`. */
export function verdictFailure(id: string, v: Failed): FailureInput {
  return {
    requirement: id,
    message: v.message,
    ...(v.expected !== undefined ? { expected: v.expected } : {}),
    ...(v.actual !== undefined ? { actual: v.actual } : {}),
    ...(v.exchange ? { exchange: v.exchange } : {}),
  };
}

/** Runs the judges of the case's requirements over `run` and records the outcome. */
export function judgeRun<R>(ctx: CheckContext, check: string, judges: Readonly<Record<string, Judge<R>>>, run: R): void {
  const missing = ctx.requirements.filter((id) => !judges[id]);
  if (missing.length) {
    throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: check ${check} cannot judge ${missing.join(', ')}; it judges ${Object.keys(judges).join(', ')}`);
  }
  const notJudged: string[] = [];
  for (const id of ctx.requirements) {
    const judge = judges[id];
    if (!judge) continue;
    const v = judge(run);
    if ('unjudged' in v) notJudged.push(`${id}: ${v.unjudged}`);
    else if (!v.ok) ctx.fail(verdictFailure(id, v));
  }
  if (notJudged.length) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: ${notJudged.join('; ')}`);
}

/** Checks that a check was given only the arguments it knows. */
export function argsOf(check: string, args: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length) throw new SpecgateError('SG_SUITE_SCHEMA', `check ${check}: unknown argument ${unknown.join(', ')}; it takes ${known.join(', ') || 'none'}`);
  return args;
}

export function numberArg(check: string, args: Record<string, unknown>, name: string, fallback?: number): number {
  const v = args[name];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new SpecgateError('SG_SUITE_SCHEMA', `check ${check}: argument ${name} must be a number of seconds or a count, not ${JSON.stringify(v)}`);
  return v;
}
