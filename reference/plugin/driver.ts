import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, delimiter } from 'node:path';
import { decodeDriverResponse, encodeDriverRequest, readDescriptorSet } from './driver-codec.js';
// the model's own files, not its index: the driver starts once per compiler run and needs no more
import { applyGenerators, type ApplyOptions, type ApplyResult, type GeneratorRun, type Tree } from './model/apply.js';
import { proto3OptionalFilesToGenerate } from './model/features.js';
import { findOnPath } from './search-path.js';
import { writeTree } from './tree-io.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse, FileDescriptorShape, Version } from './types.js';

/**
 * The reference compiler driver: the compiler side of spec A with protoc's command-line shape,
 * working from descriptor sets instead of .proto sources.
 *
 *   driver --descriptor_set_in=SET[:SET...] [--plugin=protoc-gen-NAME=PATH]
 *          --NAME_out=[PARAM:]DIR [--NAME_opt=PARAM] FILE...
 *   driver --version       prints the version it sends as compiler_version
 *
 * Generators run in command-line order (Rules for File, rule 6), each plugin gets one request
 * (file_to_generate = FILEs, proto_file = FILEs and their imports in topological order), and
 * the responses are applied with the model; on any error nothing is written and the exit status
 * is 1, with protoc-like messages on stderr. Messages go through driver-codec.ts (no protobufjs:
 * the driver starts once per compiler run), descriptors passed on byte for byte.
 */

/** The version this driver reports in `compiler_version` (spec A, Versioning 1). */
export const DRIVER_VERSION: Version = { major: 0, minor: 1, patch: 0, suffix: '' };
export const PLUGIN_PREFIX = 'protoc-gen-';

export interface OutputDirective {
  name: string;
  dir: string;
  parameter: string[];
}

export interface DriverArgs {
  descriptorSets: string[];
  plugins: Map<string, string>;
  outputs: OutputDirective[];
  files: string[];
}

/**
 * Ways to bend the driver; used by planted-fault drivers in the tests. `mapRequest` sees the
 * descriptors as read from the set (only what the driver decodes of them); a hook that replaces
 * descriptors also encodes the request (`encodeRequest`, e.g. with the full codec).
 */
export interface DriverHooks {
  mapRequest?(req: CodeGeneratorRequest, generator: string): CodeGeneratorRequest;
  encodeRequest?(req: CodeGeneratorRequest): Uint8Array;
  resolvePlugin?(name: string, explicit: string | undefined, env: NodeJS.ProcessEnv): string | undefined;
  mapOutputs?(outputs: OutputDirective[]): OutputDirective[];
  pluginExit?(status: number | null, generator: string): number | null;
  /** Reads a plugin's output (throws when it is no CodeGeneratorResponse). */
  decodeResponse?(stdout: Uint8Array): CodeGeneratorResponse;
  apply?(runs: GeneratorRun[], opts: ApplyOptions): ApplyResult;
  onFailure?(runs: GeneratorRun[], opts: ApplyOptions, write: (dir: string, tree: Tree) => void): void;
}

export class UsageError extends Error {}

/** Parses protoc's command line (the subset the plugin protocol needs). */
export function parseArgs(argv: readonly string[]): DriverArgs {
  const args: DriverArgs = { descriptorSets: [], plugins: new Map(), outputs: [], files: [] };
  const opts = new Map<string, string[]>();
  for (const arg of argv) {
    if (!arg.startsWith('-')) {
      args.files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = eq < 0 ? '' : arg.slice(eq + 1);
    if (flag === '--descriptor_set_in') {
      args.descriptorSets.push(...value.split(delimiter).filter((s) => s !== ''));
    } else if (flag === '--plugin') {
      const e2 = value.indexOf('=');
      const path = e2 < 0 ? value : value.slice(e2 + 1);
      const exe = e2 < 0 ? basename(value) : value.slice(0, e2);
      if (!exe.startsWith(PLUGIN_PREFIX)) throw new UsageError(`${arg}: plugin name must start with ${PLUGIN_PREFIX}`);
      args.plugins.set(exe.slice(PLUGIN_PREFIX.length), path);
    } else if (/^--[A-Za-z0-9_-]+_out$/.test(flag)) {
      if (eq < 0 || value === '') throw new UsageError(`Missing value for flag: ${flag}`);
      const colon = value.lastIndexOf(':');
      const parameter = colon < 0 ? [] : [value.slice(0, colon)];
      args.outputs.push({ name: flag.slice(2, -4), dir: colon < 0 ? value : value.slice(colon + 1), parameter });
    } else if (/^--[A-Za-z0-9_-]+_opt$/.test(flag)) {
      const name = flag.slice(2, -4);
      opts.set(name, [...(opts.get(name) ?? []), value]);
    } else {
      throw new UsageError(`Unknown flag: ${flag} (this driver reads descriptor sets: --descriptor_set_in, --plugin, --NAME_out, --NAME_opt)`);
    }
  }
  for (const o of args.outputs) o.parameter.push(...(opts.get(o.name) ?? []));
  if (args.descriptorSets.length === 0) throw new UsageError('--descriptor_set_in is required (this driver does not parse .proto sources)');
  if (args.files.length === 0) throw new UsageError('Missing input file.');
  if (args.outputs.length === 0) throw new UsageError('Missing output directives.');
  return args;
}

/** The files to generate and everything they import, dependencies first (spec A, proto_file). */
export function closure(files: readonly string[], pool: ReadonlyMap<string, FileDescriptorShape>): FileDescriptorShape[] {
  const out: FileDescriptorShape[] = [];
  const done = new Set<string>();
  const visit = (name: string, chain: readonly string[]): void => {
    if (done.has(name)) return;
    if (chain.includes(name)) throw new UsageError(`File recursively imports itself: ${[...chain, name].join(' -> ')}`);
    const file = pool.get(name);
    if (!file) throw new UsageError(`${name}: File not found${chain.length ? ` (imported by ${chain[chain.length - 1] ?? ''})` : ''}.`);
    for (const dep of file.dependency ?? []) visit(dep, [...chain, name]);
    done.add(name);
    out.push(file);
  };
  for (const f of files) visit(f, []);
  return out;
}

export interface DriverResult {
  status: number;
  stderr: string[];
  /** Lines for standard output (only `--version` writes any). */
  stdout?: string[];
}

/** What `--version` prints, as protoc prints `libprotoc 3.21.12`: the version compiler_version carries. */
export function versionLine(v: Version = DRIVER_VERSION): string {
  return `specgate-plugin-driver ${v.major ?? 0}.${v.minor ?? 0}.${v.patch ?? 0}${v.suffix ? `-${v.suffix}` : ''}`;
}

/** Runs the driver; returns the exit status and stderr lines instead of exiting. */
export function runDriver(argv: readonly string[], hooks: DriverHooks = {}, env: NodeJS.ProcessEnv = process.env): DriverResult {
  if (argv.includes('--version')) return { status: 0, stderr: [], stdout: [versionLine()] };
  const stderr: string[] = [];
  let args: DriverArgs;
  const pool = new Map<string, FileDescriptorShape>();
  let protoFiles: FileDescriptorShape[];
  try {
    args = parseArgs(argv);
    for (const setPath of args.descriptorSets) {
      for (const f of readDescriptorSet(readFileSync(setPath))) if (f.name !== undefined && !pool.has(f.name)) pool.set(f.name, f);
    }
    protoFiles = closure(args.files, pool);
  } catch (e) {
    return { status: 1, stderr: [e instanceof Error ? e.message : String(e)] };
  }
  const outputs = hooks.mapOutputs ? hooks.mapOutputs(args.outputs) : args.outputs;
  const runs: GeneratorRun[] = [];
  for (const o of outputs) {
    if (!existsSync(o.dir) || !statSync(o.dir).isDirectory()) return { status: 1, stderr: [`${o.dir}/: No such file or directory`] };
    const exe = `${PLUGIN_PREFIX}${o.name}`;
    const explicit = args.plugins.get(o.name);
    const path = hooks.resolvePlugin ? hooks.resolvePlugin(o.name, explicit, env) : (explicit ?? findOnPath(exe, env));
    if (!path) return { status: 1, stderr: [`${exe}: program not found or is not executable`, `--${o.name}_out: ${exe}: Plugin failed with status code 1.`] };
    let req: CodeGeneratorRequest = { file_to_generate: [...args.files] };
    if (o.parameter.length) req.parameter = o.parameter.join(',');
    req.proto_file = protoFiles;
    req.compiler_version = DRIVER_VERSION;
    if (hooks.mapRequest) req = hooks.mapRequest(req, o.name);
    const input = hooks.encodeRequest ? hooks.encodeRequest(req) : encodeDriverRequest(req);
    const r = spawnSync(path, [], { input, env, maxBuffer: 256 * 1024 * 1024 });
    if (r.error) return { status: 1, stderr: [`--${o.name}_out: ${exe}: ${r.error.message}`] };
    if (r.stderr.length) stderr.push(r.stderr.toString('utf8').replace(/\n$/, ''));
    const status = hooks.pluginExit ? hooks.pluginExit(r.status, o.name) : r.status;
    if (status !== 0) return { status: 1, stderr: [...stderr, `--${o.name}_out: ${exe}: Plugin failed with status code ${status ?? r.signal}.`] };
    let response: CodeGeneratorResponse;
    try {
      response = hooks.decodeResponse ? hooks.decodeResponse(r.stdout) : decodeDriverResponse(r.stdout);
    } catch {
      return { status: 1, stderr: [...stderr, `--${o.name}_out: ${exe}: Plugin output is unparseable.`] };
    }
    runs.push({ generator: o.name, outDir: o.dir, response });
  }
  const opts: ApplyOptions = { proto3OptionalFiles: proto3OptionalFilesToGenerate({ file_to_generate: args.files, proto_file: protoFiles }) };
  const result = hooks.apply ? hooks.apply(runs, opts) : applyGenerators(runs, opts);
  if (!result.ok) {
    hooks.onFailure?.(runs, opts, writeTree);
    return { status: 1, stderr: [...stderr, `--${result.error.generator}_out: ${result.error.message}`] };
  }
  for (const [dir, tree] of result.trees) writeTree(dir, tree);
  return { status: 0, stderr };
}
