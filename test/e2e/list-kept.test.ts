/**
 * `specgate list` of built-in suites shows, on a second run, the listing kept by the first
 * (cli/list-cache.ts): the same bytes as a run that loads everything, with or without a cache.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, tempDir } from './cli.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('specgate list, kept', () => {
  it('prints the same listing loading the suites, from the kept listing, and without any cache; text and JSON', async () => {
    const cache = { SPECGATE_CACHE_DIR: join(tmp.dir, 'cache') };
    for (const args of [['list', '--suite', 'collation'], ['list', '--suite', 'collation', '--json']]) {
      const uncached = await runCli(args, { cwd: tmp.dir, env: { SPECGATE_NO_CACHE: '1' } });
      const first = await runCli(args, { cwd: tmp.dir, env: cache });
      const second = await runCli(args, { cwd: tmp.dir, env: cache });
      expect(uncached.code).toBe(0);
      expect(uncached.stdout).toMatch(/collation/);
      expect(first).toEqual(uncached);
      expect(second).toEqual(uncached);
    }
  }, 120_000);

  it('still says which suites there are for a suite that is not one', async () => {
    const res = await runCli(['list', '--suite', 'nope'], { cwd: tmp.dir, env: { SPECGATE_CACHE_DIR: join(tmp.dir, 'cache') } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/nope/);
    expect(res.stderr).toMatch(/plugin/);
  }, 60_000);
});
