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
