import { SpecgateError } from '../../errors.js';

/** What one request to a database is raced against, until it is cleared. */
export interface AnswerDeadline {
  /** Rejects when the time is up or the caller abandons the request; never resolves. */
  cut: Promise<never>;
  /** Stops the timer and the abort listener, once the request has settled. */
  clear(): void;
}

/**
 * The deadline of one request (`what`: a query, a command) to the database at `where`: `cut`
 * rejects with SG_TARGET_TIMEOUT after `ms`, saying which limit to raise, or with the reason
 * `signal` aborts with (SG_CASE_TIMEOUT when that is no error). Drivers have no deadline of
 * their own that also frees the step when a case is abandoned, so the adapters race this.
 */
export function answerDeadline(where: string, ms: number, what: string, signal?: AbortSignal): AnswerDeadline {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SpecgateError('SG_TARGET_TIMEOUT', `the database at ${where} did not answer within ${ms} ms; raise \`database.timeoutMs\` in the target profile or the step's \`timeoutMs\``)), ms);
    onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new SpecgateError('SG_CASE_TIMEOUT', `the ${what} was abandoned`));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return {
    cut,
    clear() {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    },
  };
}
