import { SpecgateError } from '../../errors.js';
import type { Exchange } from '../model.js';
import type { CheckContext, FailureInput } from './context.js';
import { defineCheck, type Judge, type JudgedCheckDefinition, type TypedCheck, type Verdict } from './contract.js';

/** A verdict that found a deviation. */
export type Failed = Extract<Verdict, { ok: false }>;

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

/**
 * Runs the judge of every requirement the case lists over one observation: failures are
 * recorded as they are found, and what each judge judged as observations; a requirement with
 * nothing to judge stays untested with the judge's reason, one whose rule it rests on broke is
 * blocked by that rule; otherwise one that does not apply to the target ends the case not
 * applicable, with the reasons.
 */
export function judgeCase<R, A>(ctx: CheckContext, judgeBy: Readonly<Record<string, Judge<R, A>>>, observed: R, args: A): void {
  assertJudgeable(ctx, judgeBy);
  const moot: string[] = [];
  for (const id of ctx.requirements) {
    const v = (judgeBy[id] as Judge<R, A>)(observed, args);
    if ('notApplicable' in v) moot.push(`${id}: ${v.notApplicable}`);
    else if ('unjudged' in v) ctx.noEvidence(id, v.unjudged);
    else if ('blockedBy' in v) ctx.blockedOne(id, v.blockedBy, v.reason, v.exchange);
    else if (!v.ok) ctx.fail(verdictFailure(id, v));
    else ctx.observed(id, v.observed ?? 1);
  }
  if (moot.length) ctx.notApplicable(moot.join('; '));
}

/**
 * Every requirement of the case has a judge. The loader refuses a case that breaks this, so
 * reaching it means a case was built around the loader: say so before anything is launched.
 */
function assertJudgeable(ctx: CheckContext, judgeBy: Readonly<Record<string, unknown>>): void {
  const missing = ctx.requirements.filter((id) => !judgeBy[id]);
  if (missing.length)
    throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: its check cannot judge ${missing.join(', ')}; it judges ${Object.keys(judgeBy).join(', ')}`);
}

let defined = 0;

/**
 * A typed check from a judged definition: it judges the keys of `judgeBy`; its run observes
 * once and judges every requirement the case lists from that observation. With `share`, the
 * cases of one suite run that give the same arguments (or the same `shareBy` of them) share
 * one observation: the first case observes, the others wait for it, see the exchanges it
 * recorded, and judge what it saw.
 */
export function judgedCheck<A, R>(def: JudgedCheckDefinition<A, R>): TypedCheck {
  const id = `judged-${++defined}`;
  return defineCheck<A>({
    description: def.description,
    args: def.args,
    judges: Object.keys(def.judgeBy),
    ...(def.sets ? { sets: def.sets } : {}),
    ...(def.visitsPages ? { visitsPages: true } : {}),
    async run(ctx, args) {
      assertJudgeable(ctx, def.judgeBy);
      const observed = def.share ? await sharedObservation(ctx, `${id}\u0000${stableJson(def.shareBy ? def.shareBy(args, ctx) : args)}`, (c) => def.observe(c, args)) : await def.observe(ctx, args);
      judgeCase(ctx, def.judgeBy, observed, args);
    },
  });
}

/** One shared observation: what was seen and the exchanges it recorded. */
interface Shared<R> {
  observed: R;
  exchanges: Exchange[];
}

/** Shared observations that failed because the case running them was stopped (its timeout). */
const stopped = new WeakSet<Promise<unknown>>();

/**
 * The observation under `key` (one per suite run): started by the first case that asks, awaited by the others
 * (each still bound by its own signal). A failed observation is dropped, so later cases
 * observe afresh; the cases waiting for it share its error, except when it failed because the
 * case running it was stopped: they then observe themselves instead of inheriting the stop.
 * An observation `keep` refuses (one that saw the target fail, which a later look may not) is
 * shared with the cases already waiting for it and dropped for the later ones, as a failed one is.
 */
export async function sharedObservation<R>(ctx: CheckContext, key: string, observe: (ctx: CheckContext) => Promise<R>, keep: (observed: R) => boolean = () => true): Promise<R> {
  for (;;) {
    const held = ctx.observations.get(key) as Promise<Shared<R>> | undefined;
    if (!held) break;
    try {
      const shared = await untilAborted(held, ctx.signal);
      for (const ex of shared.exchanges) ctx.exchange(ex);
      return shared.observed;
    } catch (e) {
      if (ctx.signal.aborted || !stopped.has(held)) throw e;
    }
  }
  const exchanges: Exchange[] = [];
  const running: Promise<Shared<R>> = observe(recording(ctx, exchanges)).then((observed) => {
    // an observation that ended with its case stopped may have been cut short by that stop:
    // it is not handed to the others, who observe themselves
    if (ctx.signal.aborted) throw new SpecgateError('SG_TARGET_PROTOCOL', `case ${ctx.caseId} was stopped while its shared observation was under way`);
    return { observed, exchanges };
  });
  // Registered before anyone can wait on it, so waiters see the outcome already classified.
  running.then(
    (shared) => {
      if (!keep(shared.observed) && ctx.observations.get(key) === running) ctx.observations.delete(key);
    },
    () => {
      if (ctx.observations.get(key) === running) ctx.observations.delete(key);
      if (ctx.signal.aborted) stopped.add(running);
    },
  );
  ctx.observations.set(key, running);
  return (await running).observed;
}

/**
 * The context a shared observation runs with: exchanges are kept for the cases that wait for
 * it, and recording findings is refused (they belong to judges, which every case runs).
 */
function recording(ctx: CheckContext, exchanges: Exchange[]): CheckContext {
  const refuse = (what: string) => (): never => {
    throw new SpecgateError('SG_INTERNAL', `case ${ctx.caseId}: a shared observation called ctx.${what}; findings belong to judges (declare the check without share)`);
  };
  return {
    ...ctx,
    exchange: (ex) => {
      exchanges.push(ex);
      ctx.exchange(ex);
    },
    request: async (spec) => {
      const res = await ctx.request(spec);
      exchanges.push(res.exchange);
      return res;
    },
    exec: async (spec) => {
      const res = await ctx.exec(spec);
      exchanges.push(res.exchange);
      return res;
    },
    fail: refuse('fail'),
    property: refuse('property'),
  };
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** JSON with object keys sorted, so equal arguments written in another order share a key. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return v === undefined ? 'null' : JSON.stringify(v);
}
