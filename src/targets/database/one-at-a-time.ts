/**
 * A database session answers one request at a time: tasks given to the returned function run in
 * the order they came, each after the previous one settled; a failed task does not stop the next.
 */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };
}
