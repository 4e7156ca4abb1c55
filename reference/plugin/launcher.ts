import { accessSync, chmodSync, constants, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fromRoot } from '../../src/paths.js';

/** Absolute path of a compiled reference script, e.g. `compiledScript('plugin-main')`. */
export function compiledScript(name: string): string {
  return fromRoot('dist', 'reference', 'plugin', `${name}.js`);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `cat` by absolute path, found once on this process's PATH: a compiler under test may start
 * plugins with an emptied environment, where a bare `cat` would not be found.
 */
const CAT = ((): string => {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'cat'), constants.X_OK);
      return join(dir, 'cat');
    } catch {
      // not here
    }
  }
  return 'cat';
})();

/** What a scripted plugin does: save the request it reads, answer prepared bytes, exit. */
export interface ScriptedPlugin {
  /** File whose bytes are written to stdout (the CodeGeneratorResponse, or anything else). */
  response: string;
  /** Where the request bytes read from stdin are saved. */
  record: string;
  /** Exit status after answering (default 0). */
  exit?: number;
  /** A line written to stderr. */
  stderr?: string;
}

/**
 * Writes a scripted plugin for testing compilers as a POSIX shell script `dir/name` (spec A,
 * "What the service does": one request on stdin, one response on stdout). It reads the whole
 * request before answering, as a plugin must. Plain `sh` and `cat` start in about a millisecond
 * where a Node script takes about 80 ms, and the compiler-side suite starts one per generator of
 * every invocation.
 */
export function writeScriptedPlugin(dir: string, name: string, plugin: ScriptedPlugin): string {
  const path = join(dir, name);
  const cat = shellQuote(CAT);
  const lines = ['#!/bin/sh', `${cat} > ${shellQuote(plugin.record)}`];
  if (plugin.stderr !== undefined) lines.push(`printf '%s\\n' ${shellQuote(plugin.stderr)} >&2`);
  // The exit status is the scripted one even when the compiler stops reading the answer early.
  lines.push(`${cat} ${shellQuote(plugin.response)}`, `exit ${Math.trunc(plugin.exit ?? 0)}`, '');
  writeFileSync(path, lines.join('\n'));
  chmodSync(path, 0o755);
  return path;
}
