import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';

/**
 * One launch per scenario per suite run: the first case that needs a scenario's run starts it,
 * the others wait for it (each bound by its own timeout) and judge what it saw. A run that
 * failed is dropped, so a later case launches afresh; one cut short because the case that
 * started it was stopped is not handed to the others, who then launch it themselves.
 */

/** Runs cut short by the stop of the case that started them. */
const cutShort = new WeakSet<Promise<unknown>>();

export async function sharedRun<T>(ctx: CheckContext, key: string, observe: () => Promise<T>): Promise<T> {
  for (;;) {
    const held = ctx.observations.get(key) as Promise<T> | undefined;
    if (!held) break;
    try {
      return await untilAborted(held, ctx.signal);
    } catch (e) {
      if (ctx.signal.aborted || !cutShort.has(held)) throw e;
    }
  }
  const running = observe().then((seen) => {
    // a launch stopped with its case saw too little to judge the other cases by
    if (ctx.signal.aborted) throw new SpecgateError('SG_TARGET_PROTOCOL', `case ${ctx.caseId} was stopped while its client run was under way`);
    return seen;
  });
  // registered before anyone can wait on it, so waiters see the outcome already classified
  running.catch(() => {
    if (ctx.observations.get(key) === running) ctx.observations.delete(key);
    if (ctx.signal.aborted) cutShort.add(running);
  });
  ctx.observations.set(key, running);
  return running;
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
