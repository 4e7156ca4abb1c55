import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import type { Exchange } from '../../../src/engine/model.js';
import { SpecgateError } from '../../../src/errors.js';

/**
 * Starts the client application under test (var `client_command`) and watches it: its
 * standard output is where it talks to the user (the authorization URL, the user code), its
 * exit ends the flow. The client leads its own process group, so stopping it also stops
 * whatever it started (a browser opener, a helper).
 */
export interface ClientExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ClientProcess {
  readonly argv: readonly string[];
  stdout(): string;
  stderr(): string;
  exit(): ClientExit | undefined;
  /** Waits until `find` returns a value for the output so far; undefined on exit or timeout. */
  waitForOutput<T>(find: (stdout: string) => T | undefined, timeoutMs: number): Promise<T | undefined>;
  /** Waits for the process to end; undefined when it is still running after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<ClientExit | undefined>;
  /** Ends the process (SIGTERM, then SIGKILL) and whatever is left in its group; waits for the exit. */
  stop(): Promise<ClientExit>;
}

const OUTPUT_CAP = 1024 * 1024;

/** argv for a `client_command` value: a list as is; a string is a shell command line. */
export function clientArgv(command: unknown): string[] {
  if (Array.isArray(command)) {
    const argv = command.map(String);
    return argv[0] !== undefined && /\.(c|m)?js$/.test(argv[0]) ? [process.execPath, ...argv] : argv;
  }
  if (typeof command !== 'string' || command.trim() === '') {
    throw new SpecgateError('SG_CONFIG', 'no client application to run: give --client "<command line>" or set vars.client_command');
  }
  const line = command.trim();
  if (/\.(c|m)?js$/.test(line) && existsSync(line) && statSync(line).isFile()) return [process.execPath, line];
  return ['/bin/sh', '-c', line];
}

export function launchClient(command: unknown, env: Record<string, string>, signal: AbortSignal): ClientProcess {
  const argv = clientArgv(command);
  const [exe, ...args] = argv;
  if (exe === undefined) throw new SpecgateError('SG_CONFIG', 'empty client command');
  let child: ChildProcess;
  try {
    // BROWSER=echo: an application that "opens the browser" the conventional way prints the
    // URL on its own output instead, where the harness (the user's browser) reads it.
    child = spawn(exe, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROWSER: 'echo', ...env } });
  } catch (e) {
    throw new SpecgateError('SG_TARGET_UNREACHABLE', `cannot start the client ${argv.join(' ')}: ${(e as Error).message}`);
  }
  let out = '';
  let err = '';
  let exit: ClientExit | undefined;
  // 'exit' can come before the last output is read; output is final once the pipes close
  // (or shortly after the exit, when a descendant still holds them).
  let final = false;
  const watchers = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...watchers]) w();
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    if (out.length < OUTPUT_CAP) out += d;
    notify();
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    if (err.length < OUTPUT_CAP) err += d;
  });
  const settle = (): void => {
    final = true;
    notify();
  };
  child.on('error', (e) => {
    err += `\n[spawn error] ${e.message}`;
    exit ??= { code: null, signal: null };
    settle();
  });
  child.on('exit', (code, sig) => {
    exit = { code, signal: sig };
    signal.removeEventListener('abort', onAbort);
    setTimeout(settle, 200).unref();
  });
  child.on('close', settle);
  const killGroup = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const onAbort = (): void => killGroup('SIGKILL');
  // Several launches in flight each watch the case's signal (client process, deliveries).
  setMaxListeners(64, signal);
  signal.addEventListener('abort', onAbort, { once: true });

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

  const proc: ClientProcess = {
    argv,
    stdout: () => out,
    stderr: () => err,
    exit: () => exit,
    waitForOutput: (find, timeoutMs) => waitFor(() => find(out), timeoutMs),
    waitForExit: (timeoutMs) => waitFor(() => (final ? exit : undefined), timeoutMs),
    async stop() {
      const ended = final ? exit : undefined;
      if (!ended) killGroup('SIGTERM');
      const soft = ended ?? (await proc.waitForExit(1000));
      // Whatever the application left in its group (a helper, a browser opener) goes too.
      killGroup('SIGKILL');
      const hard = soft ?? (await proc.waitForExit(5000));
      signal.removeEventListener('abort', onAbort);
      return hard ?? { code: null, signal: 'SIGKILL' };
    },
  };
  return proc;
}

/** The last lines of the client's output, for reports. */
export function outputTail(text: string, lines = 12): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function describeExit(e: ClientExit | undefined): string {
  if (!e) return 'still running';
  return e.signal ? `signal ${e.signal}` : `exit status ${e.code ?? '?'}`;
}

/** How a run ended for the client: filled in by {@link finishClient}. */
export interface FinishedClient {
  exit: ClientExit | undefined;
  /** True when the harness had to stop the client. */
  stopped: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Stops the client if it is still running and records into `run` how it ended and what it
 * printed; returns the exchange that shows this in a report (the caller emits it once the
 * rest of the run is collected).
 */
export async function finishClient(client: ClientProcess, run: FinishedClient): Promise<Exchange> {
  run.stopped = !client.exit();
  run.exit = await client.stop();
  run.stdout = client.stdout();
  run.stderr = client.stderr();
  return { kind: 'exec', summary: `client ${client.argv.join(' ')} -> ${run.stopped ? 'stopped by the harness' : describeExit(run.exit)}`, response: { stdout: outputTail(run.stdout), stderr: outputTail(run.stderr) } };
}
