/**
 * The process groups of target processes still running (executables, launched clients). Each
 * target process leads its own group and is stopped with its group by the code that started
 * it; this list is for the one moment that code gets no chance to: a second Ctrl-C, when
 * specgate quits at once and must not leave a sleeping plugin or a helper behind.
 */
const live = new Set<number>();

/** Notes a group leader's pid; the returned function forgets it once its group is stopped. */
export function trackGroup(pid: number): () => void {
  live.add(pid);
  return () => {
    live.delete(pid);
  };
}

/** Kills every group still noted (SIGKILL: there is no time left to ask nicely). Synchronous. */
export function killLiveGroups(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is already empty.
    }
  }
  live.clear();
}
