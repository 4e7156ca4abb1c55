import { commandArgv } from '../command-line.js';
import { execWorkerScript, runExec } from '../exec-runner.js';
import { ThreadedExecRunner } from '../exec-thread.js';
import { ClientOutput, OUTPUT_CAP, type ClientExit } from './client-output.js';
import { STOP_GRACE_MS, onCaseAbort, spawnClient } from './client-spawn.js';
import { launchEnv } from './launch-env.js';

/**
 * One run of a client application under test: specgate starts it, reads what it tells the
 * user on its standard output (an address to open, a code to type), and stops it. The
 * application leads its own session and process group, so stopping it also stops whatever it
 * started (a browser opener, a helper), even after the application itself has exited, and even
 * what left the group (process-family.ts).
 */
export interface ClientProcess {
  readonly argv: readonly string[];
  /** Where it was started: the exec worker thread, or the thread that launched it. */
  readonly startedIn: ClientThread;
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

export { OUTPUT_CAP, STOP_GRACE_MS, type ClientExit };

/** Where a client is started (see {@link launchClient}). */
export type ClientThread = 'worker' | 'this thread';

/**
 * Starts `command` (turned into an argument vector by the one command-line rule,
 * src/targets/command-line.ts) with the suite's contract variables (see launch-env.ts). When
 * `signal` aborts (the case's timeout), the whole group is killed at once.
 *
 * The start happens in the exec worker thread when it is ready (exec-thread.ts): starting a
 * process blocks the thread that starts it until the child has exec'd (tens of milliseconds on a
 * busy machine, for a process of specgate's size), and this thread serves the played servers
 * and clock hooks every client of the run talks to. The worker tells each client's output and
 * end as they happen, and this side waits on that copy by the same rules (client-output.ts).
 */
export function launchClient(command: unknown, contract: Readonly<Record<string, string>>, signal: AbortSignal, what = 'client application', where: ClientThread = 'worker'): ClientProcess {
  const argv = commandArgv(command, what);
  const env = launchEnv(contract);
  // an argument the spawn refuses at once is refused here, at the call, as it always was; any
  // other start that throws in the worker fails the waits on the client with the same error
  const remote = where === 'worker' && crossable(argv, env) ? launchInWorker(argv, env, signal, what) : undefined;
  return remote ?? launchHere(argv, env, signal, what);
}

/** Starts the exec worker thread ahead of a case's first launch (the harness does, as it opens). */
export function prepareClientLaunches(): void {
  clientThread()?.prepare();
}

/** Resolves once launches can go to the worker thread: true, or false where they never will. */
export async function clientLaunchesReady(): Promise<boolean> {
  return (await clientThread()?.whenReady()) ?? false;
}

/** The worker thread that starts clients (one per process, started at the first need), or undefined where none can run. */
let launcher: ThreadedExecRunner | null | undefined;
function clientThread(): ThreadedExecRunner | undefined {
  if (launcher === undefined) {
    const script = execWorkerScript();
    launcher = script ? new ThreadedExecRunner(script, runExec) : null;
  }
  return launcher ?? undefined;
}

/** No NUL in an argument or a value: spawn refuses those at once, which only this thread can throw. */
function crossable(argv: readonly string[], env: Readonly<Record<string, string>>): boolean {
  return !argv.some((a) => a.includes('\0')) && !Object.values(env).some((v) => v.includes('\0'));
}

function launchHere(argv: readonly string[], env: Record<string, string>, signal: AbortSignal, what: string): ClientProcess {
  const client = spawnClient(argv, env, signal, what);
  return clientProcess(argv, 'this thread', client.output, () => client.stop());
}

function launchInWorker(argv: readonly string[], env: Record<string, string>, signal: AbortSignal, what: string): ClientProcess | undefined {
  const output = new ClientOutput(signal);
  const remote = clientThread()?.launch(
    { argv: [...argv], env, what },
    {
      output: (stream, text) => void output.append(stream, text),
      exit: (exit, replace) => output.setExit(exit, replace),
      final: () => output.settle(),
      failed: (error) => output.fail(error),
    },
  );
  if (!remote) return undefined;
  const unwatch = onCaseAbort(signal, () => remote.abort());
  return clientProcess(argv, 'worker', output, async () => {
    const exit = await remote.stop();
    unwatch();
    // a start that failed, or a worker that ended under it, is an error of the case, as in this thread
    const failure = output.failed();
    if (failure) throw failure;
    return exit;
  });
}

function clientProcess(argv: readonly string[], startedIn: ClientThread, output: ClientOutput, stop: () => Promise<ClientExit>): ClientProcess {
  return {
    argv,
    startedIn,
    stdout: () => output.stdout(),
    stderr: () => output.stderr(),
    exit: () => output.exit(),
    waitForOutput: (find, timeoutMs) => output.waitFor(() => find(output.stdout()), timeoutMs),
    waitForExit: (timeoutMs) => output.waitForExit(timeoutMs),
    stop,
  };
}

/** The last lines of a client's output, for reports. */
export function outputTail(text: string, lines = 12): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function describeExit(e: ClientExit | undefined): string {
  if (!e) return 'still running';
  return e.signal ? `signal ${e.signal}` : `exit status ${e.code ?? '?'}`;
}
