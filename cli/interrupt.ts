import type { Interruption } from '../src/engine/model.js';
import { sweepEverythingStarted } from '../src/targets/process-family.js';

/** The signals that interrupt a run or a fuzz search, and the exit code each gives. */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof EXIT_CODES;
/**
 * How long an interrupted command may take to end once it has written what it had (ms): what
 * still runs then (a suite's check that ignores the abort and sleeps on) is not waited for.
 */
const EXIT_GRACE_MS = 1000;

/** How a command learns that the user (Ctrl-C) or a CI runner (SIGTERM) wants it to stop. */
export interface Interrupts {
  /** Aborted by the first signal; its reason is the {@link Interruption}. */
  signal: AbortSignal;
  /** The exit code of the first signal received (130 or 143), or undefined while none came. */
  exitCode(): 130 | 143 | undefined;
  /**
   * Stops listening: signals get their default meaning again. After an interruption, the
   * process ends {@link EXIT_GRACE_MS} later with the interruption's exit code if it has not
   * ended by itself.
   */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM while a command runs. The first one aborts `signal` (the
 * command stops scheduling, stops what is in flight, and writes what it has) and says so on
 * stderr; a second one quits at once (see {@link quitNow}).
 */
export function watchInterrupts(what: string): Interrupts {
  const ac = new AbortController();
  let first: StopSignal | undefined;
  const on = (sig: StopSignal): void => {
    if (first !== undefined) return quitNow(sig);
    first = sig;
    process.stderr.write(`\nspecgate: interrupted (${sig}); ${what} (press Ctrl-C again to quit at once)\n`);
    const reason: Interruption = { signal: sig };
    ac.abort(reason);
  };
  const onInt = (): void => on('SIGINT');
  const onTerm = (): void => on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: ac.signal,
    exitCode: () => (first === undefined ? undefined : EXIT_CODES[first]),
    dispose: () => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      // unref'd: it never keeps alive a process that would end anyway
      const code = first === undefined ? undefined : EXIT_CODES[first];
      if (code !== undefined) setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    },
  };
}

/**
 * Quits without waiting for anything: kills the target processes still running, then
 * ends this process by the signal itself, with its default action. process.exit() is no way
 * out here: it waits for Node's worker threads, and one may be stuck for good (opening a
 * named pipe nobody reads). Shells report the status as 128 + the signal's number, 130 or 143,
 * and a calling shell script sees that its child was interrupted.
 */
function quitNow(sig: StopSignal): void {
  process.stderr.write(`specgate: interrupted again: quitting without waiting\n`);
  // and everything they started, in their groups or not: no 'exit' handler runs after this
  sweepEverythingStarted();
  // the default action only comes back once no listener is left for the signal
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
  // not reached when the signal ends the process, as it does unless something blocks it
  process.exit(EXIT_CODES[sig]);
}
