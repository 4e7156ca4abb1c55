import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandArgv, execFor } from '../../src/targets/command-line.js';
import { SpecgateError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the one command-line rule', () => {
  it('takes a list as the argument vector as written', () => {
    expect(commandArgv(['/usr/bin/env', 'a b', '--x=1'])).toEqual(['/usr/bin/env', 'a b', '--x=1']);
  });

  it('splits a plain string on white space', () => {
    expect(commandArgv('  /usr/bin/protoc-gen-go   --flag  ')).toEqual(['/usr/bin/protoc-gen-go', '--flag']);
  });

  it('keeps an existing file with a space in its name as one word', () => {
    const file = join(dir, 'my plugin');
    writeFileSync(file, '#!/bin/sh\n');
    expect(commandArgv(file)).toEqual([file]);
  });

  it('runs shell syntax through /bin/sh -c', () => {
    for (const line of ['FOO=1 ./app', 'node app.js | tee log', 'app "quoted arg"', 'a && b', 'run $HOME', 'app > out', 'ls *.js'])
      expect(commandArgv(line)).toEqual(['/bin/sh', '-c', `${line} "$@"`, 'sh']);
  });

  it('passes arguments added after a shell command line on to it', () => {
    const [command, ...args] = commandArgv('X=1 /bin/echo');
    const out = execFileSync(command as string, [...args, 'a b', 'c'], { encoding: 'utf8' });
    expect(out).toBe('a b c\n');
  });

  it('runs a first word ending in .js, .mjs or .cjs with this Node', () => {
    expect(commandArgv('tool.mjs --x')).toEqual([process.execPath, 'tool.mjs', '--x']);
    expect(commandArgv(['a.cjs'])).toEqual([process.execPath, 'a.cjs']);
  });

  it('makes relative paths that exist absolute', () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      writeFileSync(join(dir, 'tool'), '');
      expect(commandArgv(['./tool', './missing'])).toEqual([join(dir, 'tool'), './missing']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses an empty command with a configuration error saying what to give', () => {
    for (const v of ['', '   ', [], undefined, 42]) {
      let err: unknown;
      try {
        commandArgv(v, 'plugin');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SpecgateError);
      expect((err as SpecgateError).code).toBe('SG_CONFIG');
      expect((err as SpecgateError).message).toMatch(/^no plugin to run/);
    }
  });

  it('gives an ExecConfig of command and arguments', () => {
    expect(execFor('/bin/echo hi')).toEqual({ command: '/bin/echo', args: ['hi'] });
  });
});
