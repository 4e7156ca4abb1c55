import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Finding and killing what a target process left behind. Killing a child's process group is
 * not enough: a descendant started with `setsid` (or Node's `spawn(..., { detached: true })`)
 * leads a session and a group of its own, and once the child has exited it is reparented, so no
 * parent link leads back to us either. Two marks still do:
 *
 * - an environment variable, {@link PROCESS_TAG_VAR}, set on every process specgate starts and
 *   inherited by whatever that process starts (read back from `/proc/<pid>/environ`);
 * - the pipes specgate reads: a process that still holds one of them (`/proc/<pid>/fd`) is
 *   keeping specgate waiting, whatever its environment.
 *
 * Linux only (it reads /proc); elsewhere a sweep finds nothing and process groups remain the
 * only cleanup. Sweeps read every process's /proc entries, so they run when something is known
 * to be left over (a pipe still open after the child's exit, a timeout, an abort, a stop), and
 * once more when specgate itself exits.
 */
export const PROCESS_TAG_VAR = 'SPECGATE_PROCESS_TAG';

/** This specgate process's part of every tag: one process's sweeps never touch another's. */
const OWNER = `${process.pid}-${randomBytes(6).toString('hex')}`;
let serial = 0;
let exitSweep = false;

/**
 * A fresh tag for one process about to be started (its value of {@link PROCESS_TAG_VAR}). The
 * first call arranges a last sweep of every tag of this specgate process when it exits.
 */
export function newProcessTag(): string {
  if (!exitSweep) {
    exitSweep = true;
    process.once('exit', () => sweepEverythingStarted());
  }
  serial += 1;
  return `${OWNER}.${serial}`;
}

/**
 * Kills whatever is left of every process this specgate process started (through
 * {@link newProcessTag}), wherever it went. Synchronous, so it can run while specgate exits.
 */
export function sweepEverythingStarted(): number[] {
  return serial === 0 ? [] : sweepProcesses({ tagPrefix: `${OWNER}.` });
}

export interface SweepTargets {
  /** Processes whose environment carries exactly this tag. */
  tag?: string;
  /** Processes whose tag starts with this text. */
  tagPrefix?: string;
  /** Processes holding one of these pipes (from {@link pipeId}). */
  pipes?: readonly string[];
}

/** Whether this system shows processes under /proc (checked once). */
let procChecked: boolean | undefined;
function hasProc(): boolean {
  procChecked ??= process.platform === 'linux' && existsSync('/proc/self/environ');
  return procChecked;
}

/**
 * Kills (SIGKILL) every process matching `targets`, except this one; returns the pids it
 * signalled. Processes of other users, and processes that end while being looked at, are
 * skipped without complaint: a sweep is cleanup and never fails.
 */
export function sweepProcesses(targets: SweepTargets): number[] {
  if (!hasProc()) return [];
  const pipes = new Set(targets.pipes ?? []);
  const tagLine = targets.tag !== undefined ? `${PROCESS_TAG_VAR}=${targets.tag}` : undefined;
  const prefixLine = targets.tagPrefix !== undefined ? `${PROCESS_TAG_VAR}=${targets.tagPrefix}` : undefined;
  if (!tagLine && !prefixLine && pipes.size === 0) return [];
  const killed: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    if (carriesTag(pid, tagLine, prefixLine) || (pipes.size > 0 && holdsPipe(pid, pipes))) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        // already gone, or not ours to signal
      }
    }
  }
  return killed;
}

function carriesTag(pid: number, exact: string | undefined, prefix: string | undefined): boolean {
  if (!exact && !prefix) return false;
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return false;
  }
  for (const line of environ.split('\0')) {
    if (exact !== undefined && line === exact) return true;
    if (prefix !== undefined && line.startsWith(prefix)) return true;
  }
  return false;
}

function holdsPipe(pid: number, pipes: ReadonlySet<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (pipes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/**
 * The identity of the pipe behind one of our ends of a child's stdio (`pipe:[<inode>]`, shared
 * by both ends), or undefined when it cannot be known (not Linux, not a pipe, already closed).
 */
export function pipeId(stream: unknown): string | undefined {
  if (!hasProc() || typeof stream !== 'object' || stream === null) return undefined;
  // Node keeps the descriptor on the stream's native handle; it is not public API, hence the care.
  const handle: unknown = (stream as { _handle?: unknown })._handle;
  const fd: unknown = typeof handle === 'object' && handle !== null ? (handle as { fd?: unknown }).fd : undefined;
  if (typeof fd !== 'number' || fd < 0) return undefined;
  try {
    const link = readlinkSync(`/proc/self/fd/${fd}`);
    return link.startsWith('pipe:') ? link : undefined;
  } catch {
    return undefined;
  }
}
