import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { SpecgateError } from '../errors.js';
import type { ExecConfig } from './types.js';

/**
 * The one rule that turns a command given to specgate (`--plugin`, `--compiler`, `--client`,
 * a profile's `exec:` or `vars.*_command`) into an argument vector:
 *
 * - a YAML list is the argument vector as written;
 * - a string naming an existing file is that file alone (paths with spaces work);
 * - a string with shell syntax (pipes, redirections, `$`, quotes, `;`, `&&`, globs, a leading
 *   `VAR=value`) runs through `/bin/sh -c`, so it means what it means in a terminal; arguments
 *   specgate adds (a compiler's or a step's) are passed on to it as `"$@"`;
 * - any other string is split on white space.
 *
 * Then: a relative path argument that exists is made absolute (the target may run in another
 * folder), and a first word ending in `.js`, `.mjs` or `.cjs` runs with this Node.
 */
export function commandArgv(value: unknown, what = 'command'): string[] {
  let argv: string[];
  if (Array.isArray(value)) argv = value.map(String);
  else if (typeof value === 'string') {
    const line = value.trim();
    if (line === '') argv = [];
    else if (isFile(line)) argv = [line];
    else if (SHELL_SYNTAX.test(line)) return ['/bin/sh', '-c', `${line} "$@"`, 'sh'];
    else argv = line.split(/\s+/);
  } else argv = [];
  if (argv.length === 0) throw new SpecgateError('SG_CONFIG', `no ${what} to run: give a command line (a string) or an argument list`);
  argv = argv.map((a) => (a.includes('/') && !isAbsolute(a) && existsSync(a) ? resolve(a) : a));
  const first = argv[0];
  if (first !== undefined && /\.(c|m)?js$/.test(first)) argv = [process.execPath, ...argv];
  return argv;
}

/** ExecConfig for a command value (see commandArgv). */
export function execFor(value: unknown, what = 'command'): ExecConfig {
  const [command, ...args] = commandArgv(value, what);
  return { command: command as string, args };
}

/** Characters and forms that only a shell gives meaning to. */
const SHELL_SYNTAX = /[|&;<>()$`'"\\*?[\]{}~]|^\s*[A-Za-z_][A-Za-z0-9_]*=/;

function isFile(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isFile();
  } catch {
    return false;
  }
}
