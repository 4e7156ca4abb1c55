/**
 * Numeric options are checked against their allowed range before anything runs: a value that
 * would hang a run, exhaust memory or silently run nothing is a usage error (exit 2) naming the
 * range, never a run. `--seed` takes any value but an empty one (see test/cli/seed-value.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../../cli/seed-value.js';
import { DEMO_MODULE, assertBuilt, readReport, runCli, tempDir } from './cli.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const RUN = ['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--report', `json=${tmp.dir}/r.json`];

describe('numeric options out of range', () => {
  it.each([
    { given: 'run --concurrency 0', args: [...RUN, '--concurrency', '0'], message: /--concurrency takes a whole number from 1 to 1024, not 0/ },
    { given: 'run --case-timeout 0', args: [...RUN, '--case-timeout', '0'], message: /--case-timeout takes a whole number from 1 to 86400000, not 0/ },
    { given: 'run --runs 1e9', args: [...RUN, '--runs', '1e9'], message: /--runs takes a whole number from 1 to 1000000, not "1e9"/ },
    { given: 'run --runs 2000000', args: [...RUN, '--runs', '2000000'], message: /--runs takes a whole number from 1 to 1000000, not 2000000/ },
    { given: 'fuzz --runs 1e10', args: ['fuzz', 'plugin', '--runs', '1e10'], message: /--runs takes a whole number from 1 to 1000000, not "1e10"/ },
    { given: 'fuzz --concurrency 0', args: ['fuzz', 'plugin', '--concurrency', '0'], message: /--concurrency takes a whole number from 1 to 256, not 0/ },
  ])('$given is exit 2 with the allowed range, and nothing runs', async ({ args, message }) => {
    const res = await runCli(args, { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).not.toMatch(/conformant|cases/);
  });

  it.each([
    { given: "run --seed ''", args: [...RUN, '--seed', ''] },
    { given: 'fuzz --seed=', args: ['fuzz', 'plugin', '--seed='] },
  ])('$given (a CI variable that is not set) is exit 2 saying so, and nothing runs', async ({ args }) => {
    const res = await runCli(args, { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/specgate: error \[SG_USAGE\]: --seed is empty \(a CI variable that is not set\?\)/);
    expect(res.stdout).not.toMatch(/conformant|cases/);
  });

  it('accepts the bounds themselves', async () => {
    const res = await runCli([...RUN, '--case', 'hello-world', '--concurrency', '1', '--runs', '1', '--seed', '2147483647'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
  });
});

describe('--seed beyond the range', () => {
  it.each(['-1', '2147483648', 'e15a6b1'])('--seed %s runs on the folded seed, and says so once', async (given) => {
    const res = await runCli([...RUN, '--case', 'hello-world', '--seed', given], { cwd: tmp.dir });
    const folded = parseSeed(given).seed;
    expect(res.code).toBe(0);
    expect(res.stdout.split(`seed ${given} folded to ${folded}\n`).length).toBe(2);
    expect(res.stdout).toContain(`Summary (seed ${folded}`);
    expect(readReport(`${tmp.dir}/r.json`).seed).toBe(folded);
  });
});
