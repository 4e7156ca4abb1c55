/**
 * Finding the processes a test started, however far they went (their own session, a cleared
 * environment, a new parent): each carries a token, the test's temp folder, in its command line,
 * and /proc is scanned for it. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface MarkedProcess {
  pid: number;
  /** R, S, D, T, ... (never Z or X: those have ended) */
  state: string;
  cmdline: string;
}

/**
 * The live processes whose command line contains `token`. A process that ends while it is read
 * is skipped, and so is one that has ended but is not reaped yet (a zombie: its command line is
 * empty and it runs nothing).
 */
export function processesMarked(token: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (!cmdline.includes(token)) continue;
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
    if (state === 'Z' || state === 'X' || state === 'x') continue;
    found.push({ pid, state, cmdline });
  }
  return found;
}

/**
 * The processes still marked with `token` once those already killed had time to go (a SIGKILL
 * takes effect when the process next runs; on a loaded machine that is not at once). Returns as
 * soon as none is left; what it returns after `settleMs` survived.
 */
export async function survivorsOf(token: string, settleMs = 5000): Promise<MarkedProcess[]> {
  const until = Date.now() + settleMs;
  let left = processesMarked(token);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesMarked(token);
  }
  return left;
}

/** Kills, one by one, the processes still marked with `token`: what a failing test left running. */
export function killMarked(token: string): void {
  for (const p of processesMarked(token)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}
