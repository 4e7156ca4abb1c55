import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { SpecgateError } from '../../errors.js';
import { ProcessFamily } from '../process-family.js';
import { signalGroup } from '../process-kill.js';
import { ClientOutput, type ClientExit } from './client-output.js';

/** How long a client gets to end after SIGTERM before its group is killed (ms). */
export const STOP_GRACE_MS = 1000;

/** What the thread that started a client is told of it as it happens (the exec worker forwards it). */
export interface ClientNews {
  /** A stream kept `text` more. */
  output(stream: 'stdout' | 'stderr', text: string): void;
  exit(exit: ClientExit, replace: boolean): void;
  /** The output is final. */
  final(): void;
}

/** A client started in this thread. */
export interface SpawnedClient {
  readonly pid: number | undefined;
  readonly output: ClientOutput;
  /** Ends the process (SIGTERM, then SIGKILL after {@link STOP_GRACE_MS}) and whatever it left behind, in its group or not. */
  stop(): Promise<ClientExit>;
}

/**
 * Starts `argv` with `env` in this thread (launchClient's work, done here or in the exec worker
 * thread). The application leads its own session and process group, and everything it starts
 * belongs to its process family (process-family.ts); when `signal` aborts, the whole family is
 * killed at once. `news`, when given, hears of its output and its end as they happen.
 */
export function spawnClient(argv: readonly string[], env: Record<string, string>, signal: AbortSignal, what: string, news?: ClientNews): SpawnedClient {
  const [exe, ...args] = argv as [string, ...string[]];
  let child: ChildProcess;
  // Everything the application starts belongs to it, so what leaves its group is found too.
  const family = new ProcessFamily();
  try {
    child = spawn(exe, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: family.env(env) });
  } catch (e) {
    throw new SpecgateError('SG_TARGET_UNREACHABLE', `cannot start the ${what} ${argv.join(' ')}: ${(e as Error).message}`);
  }
  family.adopt(child);
  const output = watchClient(child, signal, news);
  // The group, and what left it (setsid, detached spawns, cleared environments).
  const unwatch = onCaseAbort(signal, () => family.end());
  return {
    pid: child.pid,
    output,
    async stop() {
      const ended = output.final() ? output.exit() : undefined;
      // the children it has now are noted first: once SIGTERM ends it, no parent link leads to them
      family.follow();
      if (!ended && child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
      const soft = ended ?? (await output.waitForExit(STOP_GRACE_MS));
      // Whatever the application left behind (a helper, a browser opener) goes too, in its group or not.
      family.end();
      const hard = soft ?? (await output.waitForExit(5000));
      // Its output is final now: a pipe still held by something no sweep could find must not
      // keep specgate itself running.
      child.stdout?.destroy();
      child.stderr?.destroy();
      unwatch();
      return hard ?? { code: null, signal: 'SIGKILL' };
    },
  };
}

/** Runs `end` when the case's `signal` aborts, until the returned function is called. */
export function onCaseAbort(signal: AbortSignal, end: () => void): () => void {
  // A case may have several launches (and deliveries) watching its signal at once.
  setMaxListeners(64, signal);
  signal.addEventListener('abort', end, { once: true });
  return () => signal.removeEventListener('abort', end);
}

/** Keeps the client's output (each stream capped) and notes how and when it ended, telling `news`. */
function watchClient(child: ChildProcess, signal: AbortSignal, news: ClientNews | undefined): ClientOutput {
  const output = new ClientOutput(signal);
  const append = (stream: 'stdout' | 'stderr', text: string): void => {
    const kept = output.append(stream, text);
    if (kept && news) news.output(stream, kept);
  };
  const setExit = (exit: ClientExit, replace: boolean): void => {
    output.setExit(exit, replace);
    news?.exit(exit, replace);
  };
  // 'exit' can come before the last output is read: output is final once the pipes close, or
  // shortly after the exit when a descendant still holds them open.
  const settle = (): void => {
    if (output.final()) return;
    output.settle();
    news?.final();
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => append('stdout', d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => append('stderr', d));
  child.on('error', (e) => {
    append('stderr', `\n[spawn error] ${e.message}`);
    setExit({ code: null, signal: null }, false);
    settle();
  });
  child.on('exit', (code, sig) => {
    setExit({ code, signal: sig }, true);
    setTimeout(settle, 200).unref();
  });
  child.on('close', settle);
  return output;
}
