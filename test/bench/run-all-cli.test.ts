/**
 * bench/run-all.ts as `npm run bench -- <names>` runs it: a name that is no benchmark is refused
 * before anything runs (exit 2), with the names there are.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';

describe('npm run bench -- <names>', () => {
  it('refuses a name that is no benchmark, naming the benchmarks, and runs none', () => {
    const r = spawnSync(process.execPath, [fromRoot('dist', 'bench', 'run-all.js'), 'cli-start', 'no-such-bench'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no benchmark named no-such-bench; the benchmarks: cli-start, whole-runs');
    expect(r.stdout).not.toContain('== cli-start');
  });
});
