import { accessSync, chmodSync, constants, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError } from '../../src/errors.js';
import { fromRoot } from '../../src/paths.js';
import { EXTRA_CA_CERTS_VAR } from '../../src/targets/reference-node-command.js';
import { findOnPath } from './search-path.js';

/**
 * Where `npm run build` puts the reference plugin and compiler driver compiled a second time, as
 * CommonJS (reference/plugin/tsconfig.commonjs.json; commonjs-scope.ts marks the folder). A suite
 * run starts them well over a hundred times, and Node starts a script of 16 CommonJS modules
 * about 12 ms of CPU sooner than the same script as ES modules (its ESM loader, and resolving
 * and linking each module, cost more than `require`). The code is the same, so is the output.
 */
export const COMMONJS_BUILD = fromRoot('dist', 'reference', 'plugin', 'commonjs');

/** Absolute path of a compiled reference executable, `plugin-main` or `driver-main` (the CommonJS build). */
export function compiledScript(name: 'plugin-main' | 'driver-main'): string {
  return join(COMMONJS_BUILD, `${name}.js`);
}

/**
 * The variable that makes every Node process start slowly when it is set: Node 20 reads and
 * parses the certificate file it names at each start (a system bundle costs about 35 ms of CPU
 * per process, more than the rest of a reference plugin's start). The reference plugin and
 * driver make no TLS connection, and a suite run starts many of them.
 */
export { EXTRA_CA_CERTS_VAR };

/** The argument vector that runs compiled reference script `name` with this Node. */
export function referenceCommand(name: 'plugin-main' | 'driver-main'): string[] {
  return [process.execPath, compiledScript(name)];
}

/**
 * What the environment of a reference process changes so that it starts lean: when `env` sets
 * {@link EXTRA_CA_CERTS_VAR}, that variable emptied (an empty value makes Node read nothing, and
 * warn of nothing); else nothing. Given to the process specgate starts (the plugin, or the driver,
 * whose plugins inherit it), so the command line stays the plain one a report shows.
 */
export function referenceEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env[EXTRA_CA_CERTS_VAR] ? { [EXTRA_CA_CERTS_VAR]: '' } : {};
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `cat` by absolute path, looked up once on this process's PATH: a compiler under test may start
 * plugins with an emptied environment, where a bare `cat` would not be found.
 */
let cat: string | undefined;

/**
 * The scripted plugin's shell script, shipped in the package (reference/plugin/bin/): every
 * plugin {@link writeScriptedPlugin} makes is a symbolic link to it.
 */
export const SCRIPTED_PLUGIN = fromRoot('reference', 'plugin', 'bin', 'scripted-plugin');

let launcherReady = false;

/**
 * Makes sure the shipped script may be run. An unpacking that dropped its mode bits is mended by
 * a chmod, which opens nothing for writing; where that is not allowed, a typed error says what to do.
 */
function readyLauncher(): string {
  if (launcherReady) return SCRIPTED_PLUGIN;
  try {
    accessSync(SCRIPTED_PLUGIN, constants.X_OK);
  } catch {
    try {
      chmodSync(SCRIPTED_PLUGIN, 0o755);
    } catch (e) {
      throw new SpecgateError(
        'SG_CONFIG',
        `the scripted plugin ${SCRIPTED_PLUGIN} may not be run and its mode cannot be changed (${(e as Error).message}); reinstall specgate, or run chmod 755 on that file`,
      );
    }
  }
  launcherReady = true;
  return SCRIPTED_PLUGIN;
}

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
 * Makes a scripted plugin for testing compilers at `dir/name` (spec A, "What the service does":
 * one request on stdin, one response on stdout). It reads the whole request before answering, as
 * a plugin must. Plain `sh` and `cat` start in about a millisecond where a Node script takes about
 * 80 ms, and the compiler-side suite starts one per generator of every invocation.
 *
 * `dir/name` is a symbolic link to {@link SCRIPTED_PLUGIN}, and what it does is data in
 * `dir/name.conf`. No executable is written at run time: a file just written is briefly held open
 * for writing by any process another thread forks meanwhile, and Linux refuses to run it then
 * (ETXTBSY), which failed compilers on a loaded machine when each plugin was a script of its own.
 */
export function writeScriptedPlugin(dir: string, name: string, plugin: ScriptedPlugin): string {
  const path = join(dir, name);
  cat ??= findOnPath('cat', process.env) ?? 'cat';
  const lines = [`sg_cat=${shellQuote(cat)}`, `sg_record=${shellQuote(plugin.record)}`, `sg_response=${shellQuote(plugin.response)}`];
  if (plugin.stderr !== undefined) lines.push(`sg_stderr=${shellQuote(plugin.stderr)}`);
  lines.push(`sg_exit=${Math.trunc(plugin.exit ?? 0)}`, '');
  writeFileSync(`${path}.conf`, lines.join('\n'));
  rmSync(path, { force: true });
  symlinkSync(readyLauncher(), path);
  return path;
}
