import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

/**
 * Reading the process table from /proc (Linux). Everything here is synchronous, so it can run
 * while specgate exits, and forgiving: a process that ends while it is being read is simply
 * not there, and a process of another user that cannot be read shows nothing it would not show.
 * Elsewhere (no /proc) {@link procAvailable} is false and every reader returns nothing.
 */

/** What `/proc/<pid>/stat` says about one process. */
export interface ProcessEntry {
  pid: number;
  /** The parent: the process that started it, or whoever adopted it once that one exited. */
  ppid: number;
  /** Process group. */
  pgid: number;
  /** Session. */
  sid: number;
  /** R, S, D, T (stopped), t (traced), Z (ended, not yet reaped), X (being removed), ... */
  state: string;
  /** When it started (clock ticks after boot): with the pid, it names one process even once the pid is reused. */
  start: number;
}

let available: boolean | undefined;
/** Whether this system shows processes under /proc (checked once). */
export function procAvailable(): boolean {
  available ??= process.platform === 'linux' && existsSync('/proc/self/stat');
  return available;
}

let childrenFiles: boolean | undefined;
/** Whether the kernel lists each thread's children (`/proc/<pid>/task/<tid>/children`). */
export function childrenListed(): boolean {
  childrenFiles ??= procAvailable() && existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenFiles;
}

/** A /proc file is generated on read and reports size 0: read it in pieces, at most `max` bytes; undefined when it cannot be read. */
const scratch = Buffer.alloc(4096);
export function readProcFile(path: string, max = 1 << 20): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const n = readSync(fd, scratch, 0, scratch.length, null);
      if (n <= 0) break;
      parts.push(Buffer.from(scratch.subarray(0, n)));
      total += n;
      if (total >= max) break;
    }
    return Buffer.concat(parts, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Where the start time (field 22) is among the fields after the name. */
const START_INDEX = 19;

/** Parses a stat line. The command name is in parentheses and may hold spaces and parentheses itself. */
export function parseStat(line: string): ProcessEntry | undefined {
  const open = line.indexOf(' (');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(line.slice(0, open));
  // fields after the name, from field 3 (state) on: field n is at index n - 3. Read up to the
  // last one needed, without splitting the rest of the line (a process table is read whole)
  const f: string[] = [];
  for (let from = close + 2; f.length <= START_INDEX; ) {
    const space = line.indexOf(' ', from);
    f.push(space === -1 ? line.slice(from) : line.slice(from, space));
    if (space === -1) break;
    from = space + 1;
  }
  const num = (i: number): number => Number(f[i]);
  const entry = { pid, state: f[0] ?? '', ppid: num(1), pgid: num(2), sid: num(3), start: num(START_INDEX) };
  return Number.isInteger(pid) && Number.isFinite(entry.ppid) && Number.isFinite(entry.start) ? entry : undefined;
}

/** One process's entry, or undefined when it is gone (or /proc is not there). */
export function readEntry(pid: number): ProcessEntry | undefined {
  if (!procAvailable()) return undefined;
  const bytes = readProcFile(`/proc/${pid}/stat`);
  return bytes ? parseStat(bytes.toString('latin1')) : undefined;
}

/** Every process now (empty without /proc). */
export function readProcessTable(): ProcessEntry[] {
  return readEntries(listedPids());
}

/** The entries of `pids` still running (a pid gone since it was listed is left out). */
export function readEntries(pids: readonly number[]): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const pid of pids) {
    const e = readEntry(pid);
    if (e) entries.push(e);
  }
  return entries;
}

/** The pids /proc lists now: its processes (threads are not listed). Empty without /proc. */
export function listedPids(): number[] {
  if (!procAvailable()) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(name));
  }
  return pids;
}

/** Whether a process in this state has ended (it only waits to be reaped, or is being removed). */
export function hasEnded(state: string): boolean {
  return state === 'Z' || state === 'X' || state === 'x';
}

/** Whether a process in this state is halted: stopped by a signal or a tracer, or ended. */
export function isHalted(state: string): boolean {
  return state === 'T' || state === 't' || hasEnded(state);
}

/**
 * The pids of a process's children, read from every one of its threads (any thread may start
 * a process); undefined when the process is gone or the kernel does not list children.
 */
export function childPids(pid: number): number[] | undefined {
  if (!childrenListed()) return undefined;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const tid of tids) {
    const text = readProcFile(`/proc/${pid}/task/${tid}/children`)?.toString('latin1') ?? '';
    for (const word of text.split(' ')) if (word !== '') out.push(Number(word));
  }
  return out;
}

/**
 * The value of variable `name` in the environment a process was started with; undefined when it
 * has none, or when the environment cannot be read (another user's process, gone).
 */
export function envVar(pid: number, name: string): string | undefined {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return undefined;
  }
  // every line but the first follows a NUL: put one before the first too
  const text = `\0${environ}`;
  const at = text.indexOf(`\0${name}=`);
  if (at < 0) return undefined;
  const from = at + name.length + 2;
  const end = text.indexOf('\0', from);
  return text.slice(from, end < 0 ? undefined : end);
}

/**
 * What a process's descriptors `fds` are open on, for those that are pipes or sockets
 * (`pipe:[<inode>]`, `socket:[<inode>]`): the identity any other holder of the same end shows.
 */
export function fdLinks(pid: number, fds: readonly number[]): string[] {
  const links: string[] = [];
  for (const fd of fds) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (link.startsWith('pipe:') || link.startsWith('socket:')) links.push(link);
    } catch {
      // closed, or the process is gone
    }
  }
  return links;
}

/** Whether a process holds one of `ends` (as {@link fdLinks} names them). */
export function holdsOneOf(pid: number, ends: ReadonlySet<string>): boolean {
  if (ends.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (ends.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/** Waits `ms` without returning to the event loop: for the few places that must stay synchronous. */
export function pauseSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
