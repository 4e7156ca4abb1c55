import { randomBytes } from 'node:crypto';
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
 * ends of the pipes specgate reads) and decides when to kill.
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

/** This specgate process's part of the tags this thread gives (each thread has its own). */
export function tagOwner(): string {
  return OWNER;
}

/**
 * Kills whatever still carries a tag of this thread of specgate (or of `owners`: another
 * thread's, {@link tagOwner}), wherever it went, with all its descendants; returns the pids
 * killed. Synchronous, so it can run while specgate exits.
 */
export function sweepTagged(owners?: readonly string[]): number[] {
  const all = owners ?? (serial === 0 ? [] : [OWNER]);
  if (all.length === 0 || !procAvailable()) return [];
  // everything specgate started started after specgate: older processes need no look at their environment
  const since = readEntry(process.pid)?.start ?? 0;
  const ours = all.map((o) => `${o}.`);
  const carries = (tag: string | undefined): boolean => tag !== undefined && ours.some((p) => tag.startsWith(p));
  return killMarked((table) => table.filter((e) => e.start >= since && e.pid !== process.pid && carries(envVar(e.pid, PROCESS_TAG_VAR))));
}
