import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { killMarked } from './process-kill.js';
import { envVar, procAvailable, readEntry } from './process-table.js';

/**
 * The mark every process specgate starts carries, and the last sweep by it. Killing a child's
 * process group is not enough: a descendant started with `setsid` (or Node's
 * `spawn(..., { detached: true })`) leads a session and a group of its own, and once the child
 * has exited it is reparented, so no parent link leads back to us either. An environment
 * variable, {@link PROCESS_TAG_VAR}, set on every process specgate starts, is inherited by
 * whatever that process starts (read back from `/proc/<pid>/environ`) unless a descendant clears
 * its environment; process-family.ts holds the other marks (session, group, parent links, the
 * pipes specgate reads) and decides when to kill.
 *
 * Linux only (it reads /proc); elsewhere nothing is found this way and process groups remain the
 * only cleanup.
 */
export const PROCESS_TAG_VAR = 'SPECGATE_PROCESS_TAG';

/** This specgate process's part of every tag: one process's sweeps never touch another's. */
const OWNER = `${process.pid}-${randomBytes(6).toString('hex')}`;
let serial = 0;

/** A fresh tag for one process about to be started (its value of {@link PROCESS_TAG_VAR}). */
export function newProcessTag(): string {
  serial += 1;
  return `${OWNER}.${serial}`;
}

/**
 * Kills whatever still carries a tag of this specgate process, wherever it went, with all its
 * descendants; returns the pids killed. Synchronous, so it can run while specgate exits.
 */
export function sweepTagged(): number[] {
  if (serial === 0 || !procAvailable()) return [];
  // everything specgate started started after specgate: older processes need no look at their environment
  const since = readEntry(process.pid)?.start ?? 0;
  const ours = `${OWNER}.`;
  return killMarked((table) => table.filter((e) => e.start >= since && e.pid !== process.pid && envVar(e.pid, PROCESS_TAG_VAR)?.startsWith(ours) === true));
}

/**
 * The identity of the pipe behind one of our ends of a child's stdio (`pipe:[<inode>]`, shared
 * by both ends), or undefined when it cannot be known (not Linux, not a pipe, already closed).
 */
export function pipeId(stream: unknown): string | undefined {
  if (!procAvailable() || typeof stream !== 'object' || stream === null) return undefined;
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
