/**
 * A gate cannot go green by accident: a `--case`, `--suite` or fuzz suite naming nothing that
 * exists, or a baseline expiry that is no real day, is exit 2 before anything runs, with the
 * nearest known names or the file position.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODULE, assertBuilt, runCli, runDemo, tempDir } from './cli.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

describe('selections that select nothing', () => {
  it('--case naming no case is exit 2 with no case run, not conformant with 0 cases', async () => {
    const run = await runDemo(tmp.dir, ['--case', 'no-such-case']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\[SG_USAGE\]: no case "no-such-case" in suite demo \(its cases include [a-z-]+(, [a-z-]+){4} and \d+ more\)/);
    expect(run.stdout).not.toMatch(/conformant/);
    expect(existsSync(run.json)).toBe(false);
  });

  it('a misspelt --case among good ones stops the run up front and suggests the nearest IDs in the form written', async () => {
    const run = await runDemo(tmp.dir, ['--case', 'hello-world,hello-wrld,demo/exec-uper']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no case "hello-wrld" in suite demo (did you mean "hello-world"?)');
    expect(run.stderr).toContain('no case "demo/exec-uper" in suite demo (did you mean "demo/exec-upper"?)');
    expect(run.stderr).toContain('`specgate list --suite demo` lists the cases');
    expect(existsSync(run.json)).toBe(false);
  });

  it('--suite naming no suite is exit 2 suggesting the nearest suite', async () => {
    const res = await runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'dmeo'], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/\[SG_USAGE\]: no suite named "dmeo" \(did you mean "demo"\?\); known suites: .*demo/);
    expect(res.stdout).toBe('');
  });

  it('fuzz of a suite that does not exist is exit 2 suggesting the nearest suite', async () => {
    const res = await runCli(['fuzz', '--suite-module', DEMO_MODULE, 'dem', '--out', join(tmp.dir, 'fuzz-out')], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/\[SG_USAGE\]: no suite named "dem" \(did you mean "demo"\?\)/);
    expect(existsSync(join(tmp.dir, 'fuzz-out'))).toBe(false);
  });
});

describe('baseline expiry dates', () => {
  const baseline = (expires: string): string => {
    const file = join(tmp.dir, `baseline-${expires}.yaml`);
    writeFileSync(file, `expected-failures:\n  - id: DEMO-HELLO\n    reason: tracked upstream\n    expires: ${expires}\n`);
    return file;
  };

  it('a day that does not exist (2027-02-30) is exit 2 at its file:line:column', async () => {
    const file = baseline('2027-02-30');
    const run = await runDemo(tmp.dir, ['--baseline', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`[SG_CONFIG]: ${file}:4:14: expires "2027-02-30" is not a date of the calendar; write a real day as YYYY-MM-DD`);
    expect(run.stdout).not.toMatch(/conformant/);
  });

  it('a word (tomorrow) is exit 2 at its file:line:column', async () => {
    const file = baseline('tomorrow');
    const run = await runDemo(tmp.dir, ['--baseline', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:4:14:`);
    expect(run.stderr).toMatch(/"tomorrow" does not match/);
  });

  it('a real day (a leap day) is accepted', async () => {
    const run = await runDemo(tmp.dir, ['--baseline', baseline('2028-02-29'), '--case', 'hello-world']);
    expect(run.stderr).not.toMatch(/error/);
    // the entry lists a requirement that passes: stale, so the run fails (exit 1), not a config error
    expect(run.code).toBe(1);
  });
});
