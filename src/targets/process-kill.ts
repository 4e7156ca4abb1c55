import { hasEnded, isHalted, pauseSync, readEntry, readProcessTable, type ProcessEntry } from './process-table.js';

/**
 * Killing a set of processes and everything they started, without letting one slip away while
 * the table is read. A plain "list, then kill" loses the race against a process that forks
 * meanwhile: its new child is not in the list, and once its parent is killed, no parent link
 * leads to it any more. So the processes found are first stopped (SIGSTOP: a stopped process
 * starts nothing, and its children keep it as their parent), the table is read again for what
 * appeared in the meantime, and only once a reading finds nothing new and everything found is
 * halted are they all killed. Synchronous, so it also runs while specgate exits.
 */

/** Readings of the table before what was found so far is killed anyway (a process that forks without end). */
const MAX_ROUNDS = 40;
/** How long killed processes get to be gone before the kill returns anyway (ms). */
const GONE_WAIT_MS = 500;

/**
 * `roots` and all their descendants in `table` (by parent links). Entries that ended are left
 * out: their children were handed to another parent already.
 */
export function withDescendants(table: readonly ProcessEntry[], roots: Iterable<ProcessEntry>): Map<number, ProcessEntry> {
  const children = new Map<number, ProcessEntry[]>();
  for (const e of table) {
    const list = children.get(e.ppid);
    if (list) list.push(e);
    else children.set(e.ppid, [e]);
  }
  const found = new Map<number, ProcessEntry>();
  const queue: ProcessEntry[] = [];
  for (const r of roots) {
    if (found.has(r.pid)) continue;
    found.set(r.pid, r);
    queue.push(r);
  }
  for (let e = queue.pop(); e !== undefined; e = queue.pop()) {
    for (const c of children.get(e.pid) ?? []) {
      if (found.has(c.pid)) continue;
      found.set(c.pid, c);
      queue.push(c);
    }
  }
  for (const [pid, e] of found) if (hasEnded(e.state)) found.delete(pid);
  return found;
}

/**
 * Kills (SIGKILL) every process `mark` picks from the table and all their descendants, never
 * this process or its parent, and waits briefly for them to be gone; returns the pids killed.
 * Processes of other users, and processes that end while being looked at, are skipped without
 * complaint: this is cleanup and never fails. Without /proc it finds and kills nothing.
 * `read` reads the table: the whole of it, or a part sure to hold whatever `mark` picks and every
 * descendant of it (pid-window.ts: the processes started since a moment).
 */
export function killMarked(mark: (table: readonly ProcessEntry[]) => Iterable<ProcessEntry>, read: () => ProcessEntry[] = readProcessTable): number[] {
  /** Stopped so far: pid -> start time (what names the process, should the pid be reused). */
  const held = new Map<number, number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const table = read();
    if (table.length === 0) break;
    const stillHeld = table.filter((e) => held.get(e.pid) === e.start);
    let fresh = 0;
    for (const e of withDescendants(table, [...mark(table), ...stillHeld]).values()) {
      if (held.has(e.pid) || e.pid === process.pid || e.pid === process.ppid || e.pid <= 1) continue;
      if (signal(e.pid, 'SIGSTOP')) {
        held.set(e.pid, e.start);
        fresh += 1;
      }
    }
    if (fresh > 0) continue;
    // nothing new: done once every process held has really stopped (a signal takes effect
    // when the process next runs, and until then it could still fork)
    if (stillHeld.every((e) => isHalted(e.state))) break;
    pauseSync(1);
  }
  for (const pid of held.keys()) signal(pid, 'SIGKILL');
  waitGone(held);
  return [...held.keys()];
}

/** Sends `sig` to the process group that `leader` leads; false when no process of it is left (or none is ours). */
export function signalGroup(leader: number, sig: NodeJS.Signals): boolean {
  return signal(-leader, sig);
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    // ESRCH: gone already; EPERM: not ours to signal
    return false;
  }
}

/** Waits until each of `held` has ended (or its pid names another process now), at most {@link GONE_WAIT_MS}. */
function waitGone(held: ReadonlyMap<number, number>): void {
  const until = Date.now() + GONE_WAIT_MS;
  let left = [...held];
  while (left.length > 0) {
    left = left.filter(([pid, start]) => {
      const e = readEntry(pid);
      return e !== undefined && e.start === start && !hasEnded(e.state);
    });
    if (left.length === 0 || Date.now() >= until) return;
    pauseSync(1);
  }
}
