import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SpecgateError } from '../errors.js';
import { ProcessFamily } from './process-family.js';
import { StderrHead } from './stderr-head.js';
import { ThreadedExecRunner } from './exec-thread.js';
import type { ClosableExecRunner, ExecRequest, ExecResult, ExecRunOptions } from './types.js';

/** Defaults of an exec target when the profile says nothing (DESIGN "Targets": exec). */
export const EXEC_DEFAULTS = { timeoutMs: 10_000, maxStdoutBytes: 64 * 1024 * 1024, maxStderrBytes: 1024 * 1024 } as const;

/**
 * After the child's own exit (and the kill of everything it left running), how long its output
 * pipes may take to close (ms). The child is judged on what it wrote before it exited; a holder
 * of the pipes that no sweep could find (no /proc) only delays the answer by this much.
 */
export const DRAIN_MS = 2000;

/**
 * Runs an executable target: binary stdin written fully then closed, stdout collected as bytes
 * up to a cap, stderr kept (head) for the report. The child leads its own session and process
 * group, so a timeout, an overflow or an abort kills everything it started, and so does its
 * exit: an invocation ends with nothing of it left running, descendants that left the group
 * (`setsid`, double forks, cleared environments) included (process-family.ts).
 *
 * Starting a process blocks the thread that starts it (the fork, then the wait until the child
 * has exec'd: milliseconds, more the bigger the process), so invocations run in a worker thread
 * of their own (exec-thread.ts), started at the first one; `thread: 'main'`, or a system where
 * worker threads cannot run, keeps them in the calling thread. Either way {@link runExec} runs them.
 */
export function createExecRunner(opts: { thread?: 'worker' | 'main' } = {}): ClosableExecRunner {
  const script = opts.thread === 'main' ? undefined : execWorkerScript();
  if (script) return new ThreadedExecRunner(script, runExec);
  return { run: (req) => runExec(req), close: async () => undefined };
}

/** Where the worker thread starts: the compiled exec-worker.js beside this module, or (from the sources) the built one. */
export function execWorkerScript(): URL | undefined {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.js')) return new URL('./exec-worker.js', here);
  // the sources run (tests): a worker thread runs only JavaScript, the built copy when there is one
  const built = new URL('../../dist/src/targets/exec-worker.js', here);
  return existsSync(built) ? built : undefined;
}

/** Runs one invocation in this thread (the worker thread's runs come here too). */
export function runExec(req: ExecRequest, opts: ExecRunOptions = {}): Promise<ExecResult> {
  const start = opts.start ?? performance.now();
  if (req.signal?.aborted) return Promise.reject(req.signal.reason);

  return new Promise<ExecResult>((resolve, reject) => {
    let child: ChildProcess;
    const family = new ProcessFamily();
    try {
      child = spawn(req.command, req.args ?? [], {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: req.cwd,
        env: family.env({ ...process.env, ...(req.env ?? {}) }),
      });
    } catch (e) {
      reject(spawnError(req.command, req.cwd, e));
      return;
    }
    family.adopt(child);
    if (child.pid !== undefined) opts.onStart?.(child.pid);
    new ExecRun(req, child, family, start, resolve, reject).watch();
  });
}

/**
 * One started child and its invocation: it collects stdout and stderr, and settles once, when
 * the child and its pipes are done, or on the first failure (timeout, overflow, abort, a process
 * error). Every way it settles ends the family, clears both timers, drops the abort listener and
 * destroys the pipes.
 */
class ExecRun {
  private readonly timeoutMs: number;
  private readonly maxStdout: number;
  private readonly stderr: StderrHead;
  private readonly stdout: Buffer[] = [];
  private stdoutSize = 0;
  private failure: unknown;
  private settled = false;
  private exited = false;
  private timer: NodeJS.Timeout | undefined;
  private drain: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.fail(this.req.signal?.reason);

  constructor(
    private readonly req: ExecRequest,
    private readonly child: ChildProcess,
    private readonly family: ProcessFamily,
    private readonly start: number,
    private readonly resolve: (result: ExecResult) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.timeoutMs = req.timeoutMs ?? EXEC_DEFAULTS.timeoutMs;
    this.maxStdout = req.maxStdoutBytes ?? EXEC_DEFAULTS.maxStdoutBytes;
    this.stderr = new StderrHead(req.maxStderrBytes ?? EXEC_DEFAULTS.maxStderrBytes);
  }

  /** Starts the timeout, listens to the abort signal and the child's events, then writes its stdin. */
  watch(): void {
    const { child, req } = this;
    this.timer = setTimeout(() => this.fail(this.timeoutError()), this.timeoutMs);
    req.signal?.addEventListener('abort', this.onAbort, { once: true });

    child.on('error', (e) => {
      // Only spawn failures arrive here before 'spawn'; nothing was started, so nothing to kill.
      if (child.pid === undefined) {
        this.failure = spawnError(req.command, req.cwd, e);
        this.exited = true;
        this.finish();
      } else this.fail(e);
    });
    child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.add(chunk));
    child.on('exit', () => this.onExit());
    child.on('close', () => this.finish());

    // A child that exits without reading its stdin makes our write fail with EPIPE: its answer
    // (exit code, stdout) is what the case judges, so the write error is not the verdict.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(req.stdin ?? undefined);
  }

  /** Keeps a stdout chunk, or fails the invocation once stdout outgrows its cap. */
  private onStdout(chunk: Buffer): void {
    if (this.failure !== undefined) return;
    this.stdoutSize += chunk.length;
    if (this.stdoutSize > this.maxStdout) {
      this.fail(new SpecgateError(
        'SG_TARGET_TOO_LARGE',
        `${this.req.command} wrote more than ${this.maxStdout} bytes to stdout and was killed; if such output is expected, raise exec.maxStdoutBytes for this suite in the target profile`,
        { command: this.req.command, maxStdoutBytes: this.maxStdout, stderr: this.stderr.text() },
      ));
      return;
    }
    this.stdout.push(chunk);
  }

  /** The child exited: whatever it left running is killed, and the invocation ends once its pipes close (or a while after). */
  private onExit(): void {
    this.exited = true;
    // The answer is what the child wrote before it exited. Whatever it left running goes now:
    // a descendant holding the pipes would keep 'close' from coming, and one that does not
    // would outlive the invocation. What the child wrote stays in the pipes and is still read.
    this.family.kill();
    if (this.failure !== undefined) return this.finish();
    // 'close' comes once the pipes are read to their end; finish without it only if a holder
    // no sweep could find keeps them open
    this.drain = setTimeout(() => this.finish(), DRAIN_MS);
  }

  /** The error of a child that did not finish in time. */
  private timeoutError(): SpecgateError {
    return new SpecgateError(
      'SG_TARGET_TIMEOUT',
      `${this.req.command} did not finish within ${this.timeoutMs} ms and was killed with its process group; if it is just slow, raise exec.timeoutMs for this suite in the target profile`,
      { command: this.req.command, timeoutMs: this.timeoutMs, stderr: this.stderr.text() },
    );
  }

  /** Records the invocation's first failure and kills everything; it ends now if the child already exited. */
  private fail(err: unknown): void {
    if (this.failure !== undefined || this.settled) return;
    this.failure = err;
    this.family.kill();
    // The child may already be gone while a descendant holds the pipes: do not wait for them.
    if (this.exited) this.finish();
  }

  /** Settles the invocation once: cleans up, then rejects with the failure or resolves with what the child did. */
  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    // whatever the invocation started is gone before its answer is
    this.family.end();
    clearTimeout(this.timer);
    clearTimeout(this.drain);
    this.req.signal?.removeEventListener('abort', this.onAbort);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    if (this.failure !== undefined) this.reject(this.failure);
    else this.resolve({
      exitCode: this.child.exitCode,
      signal: this.child.signalCode,
      stdout: this.stdoutSize === 0 ? new Uint8Array(0) : Buffer.concat(this.stdout, this.stdoutSize),
      stderr: this.stderr.text(),
      durationMs: performance.now() - this.start,
    });
  }
}

/** The error for a child that could not be started, saying why when the system said. */
function spawnError(command: string, cwd: string | undefined, e: unknown): SpecgateError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (code === 'ENOENT' && cwd !== undefined && !existsSync(cwd)) {
    return new SpecgateError(
      'SG_TARGET_UNREACHABLE',
      `the working folder ${cwd} for ${command} does not exist; check exec.cwd in the target profile`,
      { command, cwd, errorCode: code },
      { cause: e },
    );
  }
  const why = code === 'ENOENT' ? 'was not found'
    : code === 'EACCES' ? 'is not executable (permission denied)'
    : code === 'ENOTDIR' ? 'has a path component that is not a folder'
    : `could not be started (${e instanceof Error ? e.message : String(e)})`;
  return new SpecgateError(
    'SG_TARGET_UNREACHABLE',
    `the executable ${command} ${why}; check exec.command in the target profile (an absolute path, executable by this user)`,
    { command, errorCode: code },
    { cause: e },
  );
}
