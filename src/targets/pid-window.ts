import { listedPids, readEntries, readProcFile, type ProcessEntry } from './process-table.js';

/**
 * Reading only the processes started after a given moment, instead of the whole process table
 * (Linux). Linux gives pids in rising order, wrapping to a low number past `pid_max`, skipping
 * those in use: every process started after a process P got a pid that comes after P's pid in
 * that cyclic order, and no later than the last pid given so far in this pid namespace
 * (`/proc/sys/kernel/ns_last_pid`), unless the allocation went all the way round since P was
 * started. Going round means passing every pid
 * from 300 (where a wrap resumes) to `pid_max`, each either given to a task (a fork, counted
 * by the kernel in `/proc/stat`'s `processes`) or skipped because it was in use (by a task, a
 * process group or a session: each one either already there when the moment was marked, at most
 * three per task then, or made by a task started since). So while
 *
 *     forks since the mark + 3 × tasks at the mark < pid_max - 300
 *
 * the cyclic window from P's pid to the last pid given holds every process started after P;
 * otherwise (or when a counter cannot be read) the whole table is read. A process able to choose
 * its own pid (`clone3` with `set_tid`, writing `ns_last_pid`: a privilege for checkpointing)
 * is beyond this, as it is beyond pid-based bookkeeping in general.
 *
 * With a few hundred processes on a machine, a whole table is a few hundred `stat` reads; the
 * window of one invocation is the handful started while it ran.
 */

/** Where a wrap of pid allocation resumes (the kernel's RESERVED_PIDS). */
const WRAP_FLOOR = 300;

/** The kernel's counters at a moment. */
export interface PidMark {
  /** Tasks (processes and threads) created since boot. */
  forks: number;
  /** Tasks alive. */
  tasks: number;
  /** The highest pid plus one. */
  pidMax: number;
  /** The last pid given. */
  last: number;
}

/** The counters now; undefined where one cannot be read. Read them before the process is started. */
export function pidMark(): PidMark | undefined {
  const stat = readProcFile('/proc/stat')?.toString('latin1');
  const loadavg = readProcFile('/proc/loadavg')?.toString('latin1');
  const max = readProcFile('/proc/sys/kernel/pid_max')?.toString('latin1');
  // the last pid given in this pid namespace; /proc/loadavg says it too, but a container's may be
  // another file laid over it (LXCFS), with the host's number or a stale one
  const lastPid = readProcFile('/proc/sys/kernel/ns_last_pid')?.toString('latin1');
  if (stat === undefined || loadavg === undefined || max === undefined || lastPid === undefined) return undefined;
  const at = stat.indexOf('\nprocesses ');
  const forks = at < 0 ? Number.NaN : Number(stat.slice(at + 11, stat.indexOf('\n', at + 11)));
  // "0.71 4.59 6.74 3/107 28612": running/tasks (an upper bound is all that is needed of it)
  const tasks = Number(loadavg.trim().split(' ')[3]?.split('/')[1]);
  const last = Number(lastPid.trim());
  const pidMax = Number(max.trim());
  const mark = { forks, tasks, pidMax, last };
  return Object.values(mark).every(Number.isSafeInteger) ? mark : undefined;
}

/**
 * Whether every process started after `since` (taken before the process with pid `first` was
 * started) has a pid in the cyclic window from `first` to `now.last` (both taken after the
 * processes were listed).
 */
export function windowHolds(since: PidMark, now: PidMark): boolean {
  const cycle = Math.min(since.pidMax, now.pidMax) - WRAP_FLOOR;
  return now.forks - since.forks + 3 * since.tasks < cycle;
}

/** Whether `pid` lies in the cyclic window from `first` to `last`. */
export function inWindow(pid: number, first: number, last: number): boolean {
  return first <= last ? pid >= first && pid <= last : pid >= first || pid <= last;
}

/**
 * The processes now whose pid is `first` or came after it, when `since` (counters taken before
 * the process of pid `first` was started) still bounds them; every process otherwise. Only this
 * pid namespace's /proc is read (checked once: `/proc/self` names this process).
 */
export function readProcessesFrom(first: number, since: PidMark | undefined): ProcessEntry[] {
  const pids = listedPids();
  // listed first, counted after: every pid listed was given before `last` was read
  const now = since && ownNamespace() ? pidMark() : undefined;
  // the leader itself came after the first mark: a window that does not hold it holds nothing sure
  const holds = since !== undefined && now !== undefined && windowHolds(since, now) && first !== since.last && inWindow(first, since.last, now.last);
  return readEntries(holds ? pids.filter((pid) => inWindow(pid, first, now.last)) : pids);
}

let own: boolean | undefined;
/** Whether /proc shows this process's pid namespace (its last pid given is then this namespace's). */
function ownNamespace(): boolean {
  own ??= readProcFile('/proc/self/stat')?.toString('latin1').startsWith(`${process.pid} (`) === true;
  return own;
}
