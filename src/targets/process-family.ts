import type { ChildProcess } from 'node:child_process';
import { killMarked, signalGroup, withDescendants } from './process-kill.js';
import { PROCESS_TAG_VAR, newProcessTag, sweepTagged } from './process-sweep.js';
import { pidMark, readProcessesFrom, type PidMark } from './pid-window.js';
import { childPids, childrenListed, envVar, fdLinks, hasEnded, holdsOneOf, procAvailable, readEntry, readProcessTable, type ProcessEntry } from './process-table.js';

/**
 * One process specgate starts (a plugin, a compiler, a client application, a database adapter)
 * and everything it starts in turn, so that none of it outlives its invocation or specgate.
 * The process is started in a session and group of its own (`spawn(..., { detached: true })`);
 * a descendant belongs to the family when any of these holds (Linux, through /proc):
 *
 * - it is in the leader's process group or session (what a plain fork, or a shell's job, keeps);
 * - it carries the family's tag in its environment (process-sweep.ts: what a `setsid` or
 *   double-forked child keeps);
 * - it holds the child's end of one of the pipes specgate reads (what keeps an invocation waiting);
 * - a parent link leads from it to a member. While the family runs, the members' children are
 *   followed every {@link FOLLOW_MS}, so a child that leaves the session and clears its
 *   environment is remembered before its parent exits and the link is lost.
 *
 * Started processes younger than the leader are the only candidates, so a reused pid never
 * names an older process; so a kill reads only the processes whose pids were given from the
 * leader's on, not the whole table (pid-window.ts: the kernel's counters, read as the leader's
 * environment is made, tell whether that window still holds every process started since).
 * The group and session links hold only while the leader's pid is not seen naming another
 * process: Linux reuses a pid only once no group or session of that ID is left, so from then on
 * a group or session of that ID is someone else's (a process started anywhere on the machine),
 * never the family's. Elsewhere (no /proc) the process group is all there is.
 */
export class ProcessFamily {
  /** Its value of {@link PROCESS_TAG_VAR}. */
  readonly tag = newProcessTag();
  private leader: { pid: number; start: number } | undefined;
  /** The kernel's counters before the leader was started (pid-window.ts). */
  private before: PidMark | undefined;
  /** Processes known to belong: pid -> start time. */
  private readonly members = new Map<number, number>();
  /** The child's ends of its standard streams, as any process still holding them shows them. */
  private ends: ReadonlySet<string> = new Set();
  private leaderExited = false;
  /** A kill ran after the leader exited: what it did not find, another look would not find either. */
  private sweptAfterExit = false;
  private ended = false;
  /** The leader's pid was seen naming another process: its group and session are no longer the family's. */
  private pidReused = false;

  /** The environment to start the leader with: `base` plus the family's tag. Made right before the start. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    // the counters before the start bound where the pids of the leader's descendants will be
    if (!this.leader && procAvailable()) this.before = pidMark();
    return { ...base, [PROCESS_TAG_VAR]: this.tag };
  }

  /** Takes in the process just started with {@link env} (detached: leading its own session). */
  adopt(child: ChildProcess): void {
    if (child.pid === undefined || this.leader) return;
    // Node reaps a child only from the event loop: right after spawn its entry is still there
    const start = readEntry(child.pid)?.start ?? readEntry(process.pid)?.start ?? 0;
    this.leader = { pid: child.pid, start };
    this.members.set(child.pid, start);
    // Node connects a child's stdio through socket pairs, whose two ends differ: the child's own
    // descriptors name the end its descendants inherit. They are read right after the start; a
    // child that has already exited (or swapped them) by then leaves its descendants to the other marks.
    const piped = [child.stdin, child.stdout, child.stderr].flatMap((s, fd) => (s ? [fd] : []));
    this.ends = new Set(fdLinks(child.pid, piped));
    child.once('exit', () => {
      this.leaderExited = true;
    });
    watch(this);
  }

  /** Notes the members' children (and theirs), while parent links still lead to them. */
  follow(): void {
    if (!this.leader || !procAvailable()) return;
    this.notePidReuse(readEntry(this.leader.pid));
    if (!childrenListed()) {
      // no per-process children lists: read the whole table instead
      const table = readProcessTable();
      const present = table.filter((e) => this.members.get(e.pid) === e.start);
      this.members.clear();
      for (const e of withDescendants(table, present).values()) this.members.set(e.pid, e.start);
      return;
    }
    const queue = [...this.members.keys()];
    for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
      const start = this.members.get(pid);
      const entry = readEntry(pid);
      // gone, ended, or the pid names another process by now
      if (!entry || entry.start !== start || hasEnded(entry.state)) {
        this.members.delete(pid);
        continue;
      }
      for (const kid of childPids(pid) ?? []) {
        if (this.members.has(kid)) continue;
        const k = readEntry(kid);
        if (!k) continue;
        this.members.set(kid, k.start);
        queue.push(kid);
      }
    }
  }

  /**
   * Kills the whole family now: every member found by any mark, and their descendants
   * (process-kill.ts), then the leader's process group (all there is without /proc).
   */
  kill(): void {
    const leader = this.leader;
    if (!leader) return;
    const afterExit = this.leaderExited;
    if (procAvailable()) {
      killMarked((table) => this.marked(table, leader), () => readProcessesFrom(leader.pid, this.before));
      this.notePidReuse(readEntry(leader.pid));
    }
    // a group of that ID is the family's only while the pid has not gone to another process
    if (!this.pidReused) signalGroup(leader.pid, 'SIGKILL');
    if (afterExit) this.sweptAfterExit = true;
  }

  /**
   * Ends the family: kills what is left of it (unless a kill already ran after the leader's
   * exit) and stops following it. Idempotent.
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.sweptAfterExit) this.kill();
    live.delete(this);
    if (live.size === 0 && follower) {
      clearInterval(follower);
      follower = undefined;
    }
  }

  /**
   * Notes that the leader's pid names another process now: an entry of that pid once the leader
   * has exited (Node tells of the exit once it has reaped the leader, so any later holder of the
   * pid is another process).
   */
  private notePidReuse(entry: ProcessEntry | undefined): void {
    if (entry && this.leader && this.leaderExited && entry.pid === this.leader.pid) this.pidReused = true;
  }

  private marked(table: readonly ProcessEntry[], leader: { pid: number; start: number }): ProcessEntry[] {
    const found: ProcessEntry[] = [];
    const rest: ProcessEntry[] = [];
    for (const e of table) if (e.pid === leader.pid) this.notePidReuse(e);
    const linked = (e: ProcessEntry): boolean => !this.pidReused && (e.pgid === leader.pid || e.sid === leader.pid);
    for (const e of table) {
      if (e.start < leader.start || e.pid === process.pid) continue;
      if (this.members.get(e.pid) === e.start || linked(e)) found.push(e);
      else rest.push(e);
    }
    // reading environments and open files costs more: only for what no parent link ties in
    const tied = withDescendants(table, found);
    for (const e of rest) {
      if (tied.has(e.pid) || hasEnded(e.state)) continue;
      const tag = envVar(e.pid, PROCESS_TAG_VAR);
      // another tag is another family's process; without one, it may have cleared its environment
      if (tag === this.tag || (tag === undefined && holdsOneOf(e.pid, this.ends))) found.push(e);
    }
    for (const e of found) this.members.set(e.pid, e.start);
    return found;
  }
}

/** How often the children of running families are followed (ms). */
export const FOLLOW_MS = 50;

const live = new Set<ProcessFamily>();
let follower: NodeJS.Timeout | undefined;
let hooked = false;

function watch(family: ProcessFamily): void {
  live.add(family);
  if (!hooked) hookExit();
  // unref'd: following never keeps specgate running
  if (!follower && procAvailable()) follower = setInterval(() => {
    for (const f of live) f.follow();
  }, FOLLOW_MS).unref();
}

/**
 * Kills every family still running and whatever carries a tag of this specgate process (the
 * leftovers of families that ended, should any have escaped their kill). Synchronous: it runs
 * when specgate exits, normally or not, and when a second Ctrl-C quits at once.
 */
export function sweepEverythingStarted(): void {
  for (const f of [...live]) f.end();
  for (const sweep of [...otherSweeps]) sweep();
  sweepTagged();
}

/** The last sweeps of other threads' families (exec-thread.ts), each synchronous. */
const otherSweeps = new Set<() => void>();

/**
 * Makes {@link sweepEverythingStarted} also run `sweep` (which ends the families another thread
 * of this process started, synchronously), and makes it run when specgate exits, as starting a
 * process here does. Returns what undoes it (the other thread has ended).
 */
export function sweepAlsoBy(sweep: () => void): () => void {
  otherSweeps.add(sweep);
  if (!hooked) hookExit();
  return () => otherSweeps.delete(sweep);
}

/** Signals whose default action ends specgate without its 'exit' handlers. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Once the first process is started: a last sweep when specgate exits (normally, with an error,
 * through process.exit), and, for a stop signal nobody else handles, the sweep before the
 * signal's default action (which runs no 'exit' handler).
 */
function hookExit(): void {
  hooked = true;
  process.once('exit', () => sweepEverythingStarted());
  for (const sig of STOP_SIGNALS) {
    const onSignal = (): void => {
      // A command listening itself (run, fuzz: cli/interrupt.ts) decides what the signal means.
      // This listener runs first (prepended), before a `once` listener has removed itself.
      if (process.listenerCount(sig) > 1) return;
      sweepEverythingStarted();
      process.removeListener(sig, onSignal);
      // with no listener left, the signal's default action comes back: end as it would have
      process.kill(process.pid, sig);
    };
    process.prependListener(sig, onSignal);
  }
}
