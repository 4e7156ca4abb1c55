import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { Exchange } from '../../../src/engine/model.js';
import type { CheckExec } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import type { ExecResult, ExecRunner } from '../../../src/targets/types.js';
import { encodeDescriptorSet, encodeResponse } from '../../../reference/plugin/codec.js';
import { writeScriptedPlugin, type ScriptedPlugin } from '../../../reference/plugin/launcher.js';
import { readTree } from '../../../reference/plugin/tree-io.js';
import type { CodeGeneratorResponse, FileDescriptorSetShape } from '../../../reference/plugin/types.js';

/**
 * Runs a compiler (protoc or anything with its command line) with scripted plugins that answer
 * chosen responses, and observes what it writes (spec A, Rules for File; the compiler side).
 *
 * Layout of one run, all inside a fresh temporary folder:
 *   io/        set.pb, the prepared responses, the recorded requests, and each scripted plugin:
 *              a link to reference/plugin/bin/scripted-plugin and its data in `<name>.conf`
 *              (launcher.ts); io/bin/ holds those of the plugins a compiler finds on its search path
 *   fs/a/b/    the compiler's working folder; output folders live under it, so a name with
 *              `..` that a compiler follows lands in fs/ where it is seen (and stays in the temp folder)
 * The text `@SANDBOX@` in a response's file names becomes the absolute path of `fs/`, so an
 * absolute name that a compiler honours also stays inside the temp folder.
 */

export interface ScriptedGenerator {
  /** Generator name: the compiler gets `--<name>_out`. */
  name: string;
  response?: CodeGeneratorResponse;
  /** Raw response bytes instead of `response` (e.g. not a response at all). */
  responseBytes?: Uint8Array;
  /** Output folder relative to the working folder (default `out`). */
  outDir?: string;
  /** Parameter given as `--<name>_out=PARAM:DIR`. */
  parameter?: string;
  /** Extra parameters given as `--<name>_opt=PARAM`. */
  options?: string[];
  /** The plugin's exit status (default 0). */
  exit?: number;
  /** Put `<prefix><name>` on the search path instead of passing `--plugin=`. */
  viaSearchPath?: boolean;
}

export interface CompilerInvocation {
  /** argv[0] and leading arguments of the compiler. */
  compiler: readonly string[];
  /** Variables set in the compiler's environment (var compiler_env). */
  env?: Readonly<Record<string, string>>;
  generators: readonly ScriptedGenerator[];
  descriptorSet: FileDescriptorSetShape;
  /** Files to generate, as named on the command line. */
  files: readonly string[];
  /** Plugin name prefix, `<compiler>-gen-` (default `protoc-gen-`). */
  pluginPrefix?: string;
  timeoutMs?: number;
  /**
   * Files already in the output folders before the compiler runs, as an earlier run would have
   * left them: output folder -> file name -> content. Left untouched, they are not reported as
   * written by this run.
   */
  leftovers?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface CompilerOutcome {
  command: string[];
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  /** Files per output folder (relative names, `/`-separated). */
  outputs: Map<string, Map<string, string>>;
  /** Files written anywhere else in the sandbox (relative to fs/). */
  strays: Map<string, string>;
  /** Request bytes each generator's plugin received (absent when it was not run). */
  requests: Map<string, Uint8Array>;
  sandbox: string;
  exchange: Exchange;
}

export const SANDBOX_PLACEHOLDER = '@SANDBOX@';

/** Replaces the sandbox placeholder in the file names of a response. */
export function withSandbox(res: CodeGeneratorResponse, sandbox: string): CodeGeneratorResponse {
  if (!res.file) return res;
  return {
    ...res,
    file: res.file.map((f) => (f.name?.includes(SANDBOX_PLACEHOLDER) ? { ...f, name: f.name.split(SANDBOX_PLACEHOLDER).join(sandbox) } : f)),
  };
}

/**
 * Runs one process for the harness: `ctx.exec` inside a case (the engine records it, caps its
 * output, stops its process group), or `viaRunner` outside one.
 */
export type RunProcess = (spec: CheckExec) => Promise<ExecResult>;

/** A RunProcess over a bare runner, for running the harness outside a case (tests, tools). */
export function viaRunner(runner: ExecRunner, signal?: AbortSignal): RunProcess {
  return async ({ command, args, ...rest }) => {
    const [program, ...lead] = command ?? [];
    if (program === undefined) throw new SpecgateError('SG_INTERNAL', 'the compiler harness ran a process without a command');
    return runner.run({ ...rest, command: program, args: [...lead, ...(args ?? [])], ...(signal ? { signal } : {}) });
  };
}

/**
 * A descriptor set's bytes, encoded once per set: the fixtures are loaded once (fixtures.ts) and
 * most invocations of a run write one of them, while the generated ones are each written once.
 */
const encodedSets = new WeakMap<FileDescriptorSetShape, Uint8Array>();

function encodedSet(set: FileDescriptorSetShape): Uint8Array {
  let bytes = encodedSets.get(set);
  if (!bytes) {
    bytes = encodeDescriptorSet(set);
    encodedSets.set(set, bytes);
  }
  return bytes;
}

/** Runs one invocation; the temp folder is removed afterwards. */
export async function runCompiler(run: RunProcess, inv: CompilerInvocation): Promise<CompilerOutcome> {
  const root = mkdtempSync(join(tmpdir(), 'specgate-plugin-'));
  try {
    const io = join(root, 'io');
    const sandbox = join(root, 'fs');
    const cwd = join(sandbox, 'a', 'b');
    const pathDir = join(io, 'bin');
    // one folder at a time (a recursive mkdir tries the deepest first); bin/ only when a plugin goes there
    for (const dir of [io, sandbox, join(sandbox, 'a'), cwd]) mkdirSync(dir);
    if (inv.generators.some((g) => g.viaSearchPath)) mkdirSync(pathDir);
    writeFileSync(join(io, 'set.pb'), encodedSet(inv.descriptorSet));
    const prefix = inv.pluginPrefix ?? 'protoc-gen-';
    const args: string[] = [`--descriptor_set_in=${join(io, 'set.pb')}`];
    const outDirs = new Set<string>();
    let usesPath = false;
    for (const g of inv.generators) {
      const responseFile = join(io, `${g.name}.response.pb`);
      const bytes = g.responseBytes ?? encodeResponse(withSandbox(g.response ?? {}, sandbox));
      writeFileSync(responseFile, bytes);
      const scripted: ScriptedPlugin = { response: responseFile, record: join(io, `${g.name}.request.pb`) };
      if (g.exit) Object.assign(scripted, { exit: g.exit, stderr: `scripted plugin ${g.name}: failing with status ${g.exit} as asked` });
      const exeName = `${prefix}${g.name}`;
      if (g.viaSearchPath) {
        writeScriptedPlugin(pathDir, exeName, scripted);
        usesPath = true;
      } else {
        const launcher = writeScriptedPlugin(io, exeName, scripted);
        args.push(`--plugin=${exeName}=${launcher}`);
      }
      const outDir = g.outDir ?? 'out';
      outDirs.add(outDir);
      mkdirSync(join(cwd, outDir), { recursive: true });
      args.push(`--${g.name}_out=${g.parameter !== undefined ? `${g.parameter}:` : ''}${outDir}`);
      for (const o of g.options ?? []) args.push(`--${g.name}_opt=${o}`);
    }
    for (const [dir, files] of Object.entries(inv.leftovers ?? {})) {
      outDirs.add(dir);
      for (const [name, content] of Object.entries(files)) {
        const path = join(cwd, dir, name);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, content);
      }
    }
    args.push(...inv.files);
    const [command, ...lead] = inv.compiler;
    if (command === undefined) throw new SpecgateError('SG_CONFIG', 'compiler_command is empty');
    const env: Record<string, string> = { ...(inv.env ?? {}) };
    if (usesPath) env['PATH'] = `${pathDir}${delimiter}${process.env['PATH'] ?? ''}`;
    const result = await run({ command: [command, ...lead], args, cwd, env, timeoutMs: inv.timeoutMs ?? 30_000 });
    const outputs = new Map<string, Map<string, string>>();
    for (const d of outDirs) {
      const tree = readTree(join(cwd, d));
      // a leftover the compiler did not touch is not something this run wrote
      for (const [name, content] of Object.entries(inv.leftovers?.[d] ?? {})) if (tree.get(name) === content) tree.delete(name);
      outputs.set(d, tree);
    }
    const strays = new Map<string, string>();
    for (const [name, content] of readTree(sandbox)) {
      const inOut = [...outDirs].some((d) => name.startsWith(`a/b/${d}/`));
      if (!inOut) strays.set(name, content);
    }
    const requests = new Map<string, Uint8Array>();
    for (const g of inv.generators) {
      const p = join(io, `${g.name}.request.pb`);
      if (existsSync(p)) requests.set(g.name, readFileSync(p));
    }
    const cmd = [command, ...lead, ...args];
    return {
      command: cmd,
      exitCode: result.exitCode,
      signal: result.signal,
      stderr: result.stderr,
      outputs,
      strays,
      requests,
      sandbox,
      exchange: {
        kind: 'exec',
        summary: `${cmd.map((a) => a.replace(root, '$TMP')).join(' ')} -> exit ${result.exitCode ?? result.signal}`,
        request: { command: cmd, generators: inv.generators.map((g) => ({ name: g.name, response: g.response ?? `${g.responseBytes?.length ?? 0} raw bytes` })), ...(inv.leftovers ? { leftovers: inv.leftovers } : {}) },
        response: { exitCode: result.exitCode, stderr: result.stderr, outputs: Object.fromEntries([...outputs].map(([d, t]) => [d, Object.fromEntries(t)])), strays: Object.fromEntries(strays) },
        durationMs: result.durationMs,
      },
    };
  } finally {
    // off the event loop: removing a sandbox tree waits on the disk, which other cases need not share
    await rm(root, { recursive: true, force: true });
  }
}
