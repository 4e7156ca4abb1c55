import { readFileSync } from 'node:fs';

/**
 * Whether a process is still there to signal (`kill -0`): what the tests of processes a target
 * starts (a database process, a client) read to prove the harness stopped it.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process is gone within `withinMs`, looked at every 25 ms. */
export async function gone(pid: number, withinMs = 3000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !alive(pid);
}

/** Running: signal 0 reaches it and it is not a zombie waiting for some other parent to reap it (Linux). */
export function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Whether the process has stopped {@link running} within `ms`, looked at every 20 ms. */
export async function stoppedWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
