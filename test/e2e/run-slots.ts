/**
 * A bound on how many CLI runs of one test file are in flight at once. Runs side by side fill
 * each other's waits (on sockets, on a target, on a child process); the bound keeps a file from
 * starting so many processes on a small machine that their own timeouts start to fire.
 */

/** A function that runs `work` when one of `size` slots is free and frees it when `work` settles. */
export function runSlots(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    // a freed slot is handed straight to the next in line, so no newcomer can take it in between
    if (busy >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else busy++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy--;
    }
  };
}
