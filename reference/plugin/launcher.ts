import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../src/paths.js';

/** Absolute path of a compiled reference script, e.g. `compiledScript('plugin-main')`. */
export function compiledScript(name: string): string {
  return fromRoot('dist', 'reference', 'plugin', `${name}.js`);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes an executable POSIX shell launcher `dir/name` that runs `command args... "$@"`.
 * A compiler starts plugins by path (`--plugin=protoc-gen-NAME=PATH`) or by name on the
 * search path (spec A: the plugin executable is named `<compiler>-gen-<NAME>`), so a Node
 * script needs a file of that name that can be executed directly.
 */
export function writeLauncher(dir: string, name: string, command: readonly string[], env: Record<string, string> = {}): string {
  const path = join(dir, name);
  const exports = Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
  const [exe, ...args] = command;
  if (exe === undefined) throw new Error('writeLauncher: empty command');
  writeFileSync(path, `#!/bin/sh\n${exports}exec ${[exe, ...args].map(shellQuote).join(' ')} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A launcher that runs a compiled reference script with the current Node. */
export function writeNodeLauncher(dir: string, name: string, script: string, args: readonly string[] = [], env: Record<string, string> = {}): string {
  return writeLauncher(dir, name, [process.execPath, script, ...args], env);
}
