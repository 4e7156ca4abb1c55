import { beforeAll } from 'vitest';
import { pool } from '../../src/engine/run-suite.js';

/**
 * Registers, in the calling `describe`, a `beforeAll` that runs each of the named jobs two at a
 * time (each launches processes of its own, on a 2-core machine). `jobs` is called in that
 * hook, so a job may use what an earlier hook made. Returns the reader of a run by name, for
 * once the hook is done; it throws when that run is missing.
 */
export function namedRuns<K extends string, R>(jobs: () => Readonly<Record<K, () => Promise<R>>>, timeoutMs: number): (name: K) => R {
  const runs = new Map<K, R>();
  beforeAll(async () => {
    const todo = jobs();
    await pool(Object.keys(todo) as K[], 2, async (name) => {
      runs.set(name, await todo[name]());
    });
  }, timeoutMs);
  return (name) => {
    const r = runs.get(name);
    if (r === undefined) throw new Error(`no run ${name}`);
    return r;
  };
}
