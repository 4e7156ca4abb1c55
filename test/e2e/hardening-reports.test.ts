/**
 * Report destinations: every `--report` path is checked before anything runs (a folder, a path
 * under a file, the same file twice, a path through a symbolic link are usage errors, exit 2,
 * with nothing run and no stack trace), and writing a report goes through what is not a regular
 * file instead of replacing it.
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODULE, assertBuilt, runCli, tempDir, type CliResult } from './cli.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const demo = (args: string[]): Promise<CliResult> => runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', ...args], { cwd: tmp.dir });

/** A usage error found before the run: exit 2, one error line, nothing judged, no stack. */
function expectRefusedUpFront(res: CliResult, message: RegExp): void {
  expect(res.code).toBe(2);
  expect(res.stderr).toMatch(message);
  expect(res.stderr).toMatch(/^specgate: error \[SG_USAGE\]/);
  expect(res.stdout).not.toMatch(/conformant|exit code/);
  expect(res.stderr).not.toMatch(/this is a bug|\n\s+at /);
}

describe('report paths checked before the run', () => {
  it('a folder given as the report file is exit 2 naming a file to use inside it', async () => {
    const folder = join(tmp.dir, 'reports-folder');
    mkdirSync(folder);
    const res = await demo(['--report', `json=${folder}`]);
    expectRefusedUpFront(res, /--report json=.*reports-folder is a folder; name a file inside it \(e\.g\. json=.*reports-folder\/results\.json\)/);
  });

  it('a report under a regular file (its folder cannot be created) is exit 2', async () => {
    const file = join(tmp.dir, 'plain-file');
    writeFileSync(file, 'not a folder');
    const res = await demo(['--report', `junit=${file}/junit.xml`]);
    expectRefusedUpFront(res, /plain-file is a file, so the folder .*plain-file cannot be created/);
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('two reports writing the same file are exit 2, however the path is spelled', async () => {
    const res = await demo(['--report', 'json=same/out.txt', '--report', 'tap=./same/../same/out.txt']);
    expectRefusedUpFront(res, /--report json=same\/out\.txt and --report tap=\.\/same\/\.\.\/same\/out\.txt write the same file/);
  });

  it('a report path that is a symbolic link is refused before the run, and the file it points to is left alone', async () => {
    const real = join(tmp.dir, 'real.tap');
    const link = join(tmp.dir, 'link.tap');
    writeFileSync(real, 'old content');
    symlinkSync(real, link);
    const res = await demo(['--report', `tap=${link}`]);
    expectRefusedUpFront(res, /--report tap=.*link\.tap: .*link\.tap is a symbolic link \(to .*real\.tap\); specgate writes nothing through a symbolic link/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('old content');
  });

  it('a report written to the process\'s own stdout (/proc/self/fd/1, where /dev/stdout points) is printed there, not renamed over it', async () => {
    // /proc/self/fd/1 is what /dev/stdout points to; stdout of the CLI is a pipe in this test
    const res = await demo(['--report', 'tap=/proc/self/fd/1']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^TAP version 13\n1\.\.10\n(ok \d+ - demo\/[^\n]+\n){10}/m);
    expect(res.stdout).toMatch(/conformant at the gating level/);
  });
});
