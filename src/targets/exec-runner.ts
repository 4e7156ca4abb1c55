import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { SpecgateError } from '../errors.js';
import { trackGroup } from './process-groups.js';
import { PROCESS_TAG_VAR, newProcessTag, pipeId, sweepProcesses } from './process-sweep.js';
import { StderrHead } from './stderr-head.js';
import type { ExecRequest, ExecResult, ExecRunner } from './types.js';

/** Defaults of an exec target when the profile says nothing (DESIGN "Targets": exec). */
export const EXEC_DEFAULTS = { timeoutMs: 10_000, maxStdoutBytes: 64 * 1024 * 1024, maxStderrBytes: 1024 * 1024 } as const;

/**
 * How long after the child's own exit its output pipes may stay open (ms). A descendant that
 * holds them longer is not the child's answer: the child is judged on what it wrote before it
 * exited, and whatever still holds the pipes is killed.
 */
export const EXIT_GRACE_MS = 250;
/** After the holders of the pipes were killed, how long 'close' may take before the run ends without it. */
const CLOSE_WAIT_MS = 2000;

/**
 * Runs an executable target: binary stdin written fully then closed, stdout collected as bytes
 * up to a cap, stderr kept (head) for the report. The child leads its own process group, so a
 * timeout, an overflow or an abort kills everything it started (`kill(-pid)`), and so does a
 * normal exit: a plugin's leftover descendants are orphans nobody else will reap. Descendants
 * that left the group (`setsid`, detached spawns) are found and killed too (process-sweep.ts).
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
    const tag = newProcessTag();
    try {
      child = spawn(req.command, args, {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: req.cwd,
        env: { ...process.env, ...(req.env ?? {}), [PROCESS_TAG_VAR]: tag },
      });
    } catch (e) {
      reject(spawnError(req.command, req.cwd, e));
      return;
    }
    const untrack = child.pid === undefined ? () => undefined : trackGroup(child.pid);
    const stdout: Buffer[] = [];
    let stdoutSize = 0;
    let failure: unknown;
    let settled = false;
    let exited = false;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already empty.
      }
    };
    // Everything the child started, in its group or not: whatever carries its tag or holds its pipes.
    const killAll = (): void => {
      killGroup();
      const pipes = [pipeId(child.stdout), pipeId(child.stderr)].filter((p): p is string => p !== undefined);
      sweepProcesses({ tag, pipes });
    };
    const fail = (err: unknown): void => {
      if (failure !== undefined || settled) return;
      failure = err;
      killAll();
      // The child may already be gone while a descendant holds the pipes: do not wait for them.
      if (exited) finish();
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      untrack();
      clearTimeout(timer);
      clearTimeout(grace);
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
    let grace: NodeJS.Timeout | undefined;
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
      killGroup();
      if (failure !== undefined) return finish();
      // Normally the pipes close right after the exit. If a descendant outside the group still
      // holds them, the answer is what the child wrote before it exited: read what is already
      // in the pipes, then kill the holders and stop reading.
      grace = setTimeout(() => {
        if (settled) return;
        killAll();
        // the holders are gone now: what they kept open closes, and 'close' comes with every byte
        // the child wrote still to be read (on a busy machine this timer can fire before the
        // pipes' last data is read); finish without it only if 'close' never comes
        grace = setTimeout(finish, CLOSE_WAIT_MS);
      }, EXIT_GRACE_MS);
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
