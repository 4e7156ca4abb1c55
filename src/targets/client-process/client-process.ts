import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { SpecgateError } from '../../errors.js';
import { commandArgv } from '../command-line.js';
import { ProcessFamily } from '../process-family.js';
import { signalGroup } from '../process-kill.js';
import { launchEnv } from './launch-env.js';
import { CUT_MARK } from '../text-cut.js';

/**
 * One run of a client application under test: specgate starts it, reads what it tells the
 * user on its standard output (an address to open, a code to type), and stops it. The
 * application leads its own session and process group, so stopping it also stops whatever it
 * started (a browser opener, a helper), even after the application itself has exited, and even
 * what left the group (process-family.ts).
 */
export interface ClientExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ClientProcess {
  readonly argv: readonly string[];
  /** Standard output so far (at most {@link OUTPUT_CAP} characters; the rest is dropped). */
  stdout(): string;
  stderr(): string;
  /** How it ended, once it has. */
  exit(): ClientExit | undefined;
  /** Waits until `find` returns a value for the output so far; undefined on exit or timeout. */
  waitForOutput<T>(find: (stdout: string) => T | undefined, timeoutMs: number): Promise<T | undefined>;
  /** Waits for the process to end; undefined when it is still running after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<ClientExit | undefined>;
  /** Ends the process (SIGTERM, then SIGKILL after a second) and whatever it left behind, in its group or not. */
  stop(): Promise<ClientExit>;
}

/** Characters of each output stream kept: a client that floods its output cannot exhaust memory. */
export const OUTPUT_CAP = 1024 * 1024;
/** How long a client gets to end after SIGTERM before its group is killed (ms). */
export const STOP_GRACE_MS = 1000;

/**
 * Starts `command` (turned into an argument vector by the one command-line rule,
 * src/targets/command-line.ts) with the suite's contract variables (see launch-env.ts). When
 * `signal` aborts (the case's timeout), the whole group is killed at once.
 */
export function launchClient(command: unknown, contract: Readonly<Record<string, string>>, signal: AbortSignal, what = 'client application'): ClientProcess {
  const argv = commandArgv(command, what);
  const [exe, ...args] = argv as [string, ...string[]];
  let child: ChildProcess;
  // Everything the application starts belongs to it, so what leaves its group is found too.
  const family = new ProcessFamily();
  try {
    child = spawn(exe, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: family.env(launchEnv(contract)) });
  } catch (e) {
    throw new SpecgateError('SG_TARGET_UNREACHABLE', `cannot start the ${what} ${argv.join(' ')}: ${(e as Error).message}`);
  }
  family.adopt(child);
  const output = watchClient(child, signal);
  // The group, and what left it (setsid, detached spawns, cleared environments).
  const onAbort = (): void => family.end();
  // A case may have several launches (and deliveries) watching its signal at once.
  setMaxListeners(64, signal);
  signal.addEventListener('abort', onAbort, { once: true });

  const proc: ClientProcess = {
    argv,
    stdout: output.stdout,
    stderr: output.stderr,
    exit: output.exit,
    waitForOutput: (find, timeoutMs) => output.waitFor(() => find(output.stdout()), timeoutMs),
    waitForExit: (timeoutMs) => output.waitFor(() => (output.final() ? output.exit() : undefined), timeoutMs),
    async stop() {
      const ended = output.final() ? output.exit() : undefined;
      // the children it has now are noted first: once SIGTERM ends it, no parent link leads to them
      family.follow();
      if (!ended && child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
      const soft = ended ?? (await proc.waitForExit(STOP_GRACE_MS));
      // Whatever the application left behind (a helper, a browser opener) goes too, in its group or not.
      family.end();
      const hard = soft ?? (await proc.waitForExit(5000));
      // Its output is final now: a pipe still held by something no sweep could find must not
      // keep specgate itself running.
      child.stdout?.destroy();
      child.stderr?.destroy();
      signal.removeEventListener('abort', onAbort);
      return hard ?? { code: null, signal: 'SIGKILL' };
    },
  };
  return proc;
}

/** What a started client has said and how it ended, as its output and process events tell. */
interface ClientOutput {
  /** Standard output so far (capped). */
  stdout(): string;
  /** Standard error so far (capped), with a spawn error appended. */
  stderr(): string;
  /** How it ended, once it has. */
  exit(): ClientExit | undefined;
  /** Whether the output is final: the pipes closed, or a while has passed since the exit. */
  final(): boolean;
  /** Resolves with what `find` returns once it returns a value, the output is final, `signal` aborts, or time runs out. */
  waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T | undefined>;
}

/** Keeps the client's output (each stream capped) and notes how and when it ended. */
function watchClient(child: ChildProcess, signal: AbortSignal): ClientOutput {
  let out = '';
  let err = '';
  let exit: ClientExit | undefined;
  // 'exit' can come before the last output is read: output is final once the pipes close, or
  // shortly after the exit when a descendant still holds them open.
  let final = false;
  const watchers = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...watchers]) w();
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    const before = out.length;
    out = keep(out, d);
    if (out.length !== before) notify();
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err = keep(err, d);
  });
  const settle = (): void => {
    final = true;
    notify();
  };
  child.on('error', (e) => {
    err = keep(err, `\n[spawn error] ${e.message}`);
    exit ??= { code: null, signal: null };
    settle();
  });
  child.on('exit', (code, sig) => {
    exit = { code, signal: sig };
    setTimeout(settle, 200).unref();
  });
  child.on('close', settle);

  const waitFor = <T>(find: () => T | undefined, timeoutMs: number): Promise<T | undefined> =>
    new Promise((resolve) => {
      const done = (v: T | undefined): void => {
        watchers.delete(check);
        clearTimeout(timer);
        resolve(v);
      };
      const check = (): void => {
        const v = find();
        if (v !== undefined || final || signal.aborted) done(v);
      };
      const timer = setTimeout(() => done(find()), timeoutMs);
      watchers.add(check);
      check();
    });
  return { stdout: () => out, stderr: () => err, exit: () => exit, final: () => final, waitFor };
}

/**
 * `have` with `more` appended, up to {@link OUTPUT_CAP}. A cut output ends with the cut mark
 * (within the cap): the secrets are not known here, and the Redactor masks a piece of one found
 * right before the mark.
 */
function keep(have: string, more: string): string {
  if (have.length >= OUTPUT_CAP) return have;
  const all = have + more;
  return all.length <= OUTPUT_CAP ? all : `${all.slice(0, OUTPUT_CAP - 1)}${CUT_MARK}`;
}

/** The last lines of a client's output, for reports. */
export function outputTail(text: string, lines = 12): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function describeExit(e: ClientExit | undefined): string {
  if (!e) return 'still running';
  return e.signal ? `signal ${e.signal}` : `exit status ${e.code ?? '?'}`;
}
