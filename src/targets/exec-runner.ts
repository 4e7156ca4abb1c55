import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SpecgateError } from '../errors.js';
import { ProcessFamily } from './process-family.js';
import { StderrHead } from './stderr-head.js';
import type { ExecRequest, ExecResult, ExecRunner } from './types.js';

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
 */
export function createExecRunner(): ExecRunner {
  return { run };
}

function run(req: ExecRequest): Promise<ExecResult> {
  const timeoutMs = req.timeoutMs ?? EXEC_DEFAULTS.timeoutMs;
  const maxStdout = req.maxStdoutBytes ?? EXEC_DEFAULTS.maxStdoutBytes;
  const stderr = new StderrHead(req.maxStderrBytes ?? EXEC_DEFAULTS.maxStderrBytes);
  const args = req.args ?? [];
  const start = performance.now();
  if (req.signal?.aborted) return Promise.reject(req.signal.reason);

  return new Promise<ExecResult>((resolve, reject) => {
    let child: ChildProcess;
    const family = new ProcessFamily();
    try {
      child = spawn(req.command, args, {
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
    const stdout: Buffer[] = [];
    let stdoutSize = 0;
    let failure: unknown;
    let settled = false;
    let exited = false;

    const fail = (err: unknown): void => {
      if (failure !== undefined || settled) return;
      failure = err;
      family.kill();
      // The child may already be gone while a descendant holds the pipes: do not wait for them.
      if (exited) finish();
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      // whatever the invocation started is gone before its answer is
      family.end();
      clearTimeout(timer);
      clearTimeout(drain);
      req.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (failure !== undefined) reject(failure);
      else resolve({
        exitCode: child.exitCode,
        signal: child.signalCode,
        stdout: stdoutSize === 0 ? new Uint8Array(0) : Buffer.concat(stdout, stdoutSize),
        stderr: stderr.text(),
        durationMs: performance.now() - start,
      });
    };
    let drain: NodeJS.Timeout | undefined;
    const onAbort = (): void => fail(req.signal?.reason);
    const timer = setTimeout(() => {
      fail(new SpecgateError(
        'SG_TARGET_TIMEOUT',
        `${req.command} did not finish within ${timeoutMs} ms and was killed with its process group; if it is just slow, raise exec.timeoutMs for this suite in the target profile`,
        { command: req.command, timeoutMs, stderr: stderr.text() },
      ));
    }, timeoutMs);
    req.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => {
      // Only spawn failures arrive here before 'spawn'; nothing was started, so nothing to kill.
      if (child.pid === undefined) {
        failure = spawnError(req.command, req.cwd, e);
        exited = true;
        finish();
      } else fail(e);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      stdoutSize += chunk.length;
      if (stdoutSize > maxStdout) {
        fail(new SpecgateError(
          'SG_TARGET_TOO_LARGE',
          `${req.command} wrote more than ${maxStdout} bytes to stdout and was killed; if such output is expected, raise exec.maxStdoutBytes for this suite in the target profile`,
          { command: req.command, maxStdoutBytes: maxStdout, stderr: stderr.text() },
        ));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('exit', () => {
      exited = true;
      // The answer is what the child wrote before it exited. Whatever it left running goes now:
      // a descendant holding the pipes would keep 'close' from coming, and one that does not
      // would outlive the invocation. What the child wrote stays in the pipes and is still read.
      family.kill();
      if (failure !== undefined) return finish();
      // 'close' comes once the pipes are read to their end; finish without it only if a holder
      // no sweep could find keeps them open
      drain = setTimeout(finish, DRAIN_MS);
    });
    child.on('close', finish);

    // A child that exits without reading its stdin makes our write fail with EPIPE: its answer
    // (exit code, stdout) is what the case judges, so the write error is not the verdict.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(req.stdin ?? undefined);
  });
}

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
