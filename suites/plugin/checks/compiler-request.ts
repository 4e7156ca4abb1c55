import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { Exchange } from '../../../src/engine/model.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { decodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest, DescriptorShape, FieldDescriptorShape, FileDescriptorShape } from '../../../reference/plugin/types.js';
import { checkWireTypes, fieldOrder, PROTO_FILE_FIELD, REQUEST_WIRE_TYPES } from '../../../reference/plugin/wire.js';
import { COMPILER_REQUEST_ARGS, type CompilerRequestArgs } from './arguments.js';
import { runCompiler } from './compiler-harness.js';
import { loadFixture } from './fixtures.js';
import { parsePrintedVersion, versionDifferences } from './compiler-version.js';
import { COMPILER_REQUEST_JUDGES } from './judged.js';
import { compilerArgv, compilerEnv, pluginNamePrefix, wants } from './support.js';

/** The files to generate and their imports, dependencies first: what proto_file must hold. */
function closureNames(files: readonly string[], set: readonly FileDescriptorShape[]): string[] {
  const byName = new Map(set.map((f) => [f.name ?? '', f]));
  const out: string[] = [];
  const visit = (n: string): void => {
    if (out.includes(n)) return;
    for (const d of byName.get(n)?.dependency ?? []) visit(d);
    out.push(n);
  };
  files.forEach(visit);
  return out;
}

function unqualified(file: FileDescriptorShape): string[] {
  const bad: string[] = [];
  const field = (f: FieldDescriptorShape, where: string): void => {
    if (f.typeName !== undefined && !f.typeName.startsWith('.')) bad.push(`${where}.${f.name ?? '?'} type_name ${JSON.stringify(f.typeName)}`);
    if (f.extendee !== undefined && !f.extendee.startsWith('.')) bad.push(`${where}.${f.name ?? '?'} extendee ${JSON.stringify(f.extendee)}`);
  };
  const message = (m: DescriptorShape, scope: string): void => {
    const name = `${scope}.${m.name ?? '?'}`;
    for (const f of m.field ?? []) field(f, name);
    for (const f of m.extension ?? []) field(f, name);
    for (const n of m.nestedType ?? []) message(n, name);
  };
  for (const m of file.messageType ?? []) message(m, file.name ?? '?');
  for (const f of file.extension ?? []) field(f, file.name ?? '?');
  return bad;
}

/**
 * A descriptor for comparing with the set: without source info (a compiler may add it) and with
 * type names unqualified (their qualification is PLUGIN-COMPILER-TYPE-NAMES-QUALIFIED's business).
 */
function comparable(f: FileDescriptorShape): unknown {
  const { sourceCodeInfo: _ignored, ...rest } = f;
  return JSON.parse(JSON.stringify(rest), (key: string, value: unknown) =>
    (key === 'typeName' || key === 'extendee') && typeof value === 'string' ? value.replace(/^\./, '') : value);
}

/** Everything the recorded request breaks, by requirement (spec A, CodeGeneratorRequest, Versioning 1). */
export function judgeRequest(bytes: Uint8Array, files: readonly string[], parameter: string | undefined, set: readonly FileDescriptorShape[]): (FailureInput & { requirement: string })[] {
  const found: (FailureInput & { requirement: string })[] = [];
  let req: CodeGeneratorRequest;
  try {
    checkWireTypes(bytes, REQUEST_WIRE_TYPES);
    req = decodeRequest(bytes);
  } catch (e) {
    return [{ requirement: 'PLUGIN-COMPILER-ONE-REQUEST', message: `the plugin's stdin is not a CodeGeneratorRequest: ${e instanceof Error ? e.message : String(e)}`, actual: Buffer.from(bytes.subarray(0, 64)).toString('hex') }];
  }
  const listed = req.file_to_generate ?? [];
  if (!isDeepStrictEqual([...listed].sort(), [...files].sort())) {
    found.push({ requirement: 'PLUGIN-COMPILER-FILE-TO-GENERATE', message: 'file_to_generate is not the files named on the command line, each once', expected: files, actual: listed });
  } else if (!isDeepStrictEqual(listed, [...files])) {
    found.push({ requirement: 'PLUGIN-COMPILER-FILE-TO-GENERATE-ORDER', message: 'file_to_generate lists the files in another order than the command line', expected: files, actual: listed });
  }
  if (req.parameter !== parameter) {
    found.push({ requirement: 'PLUGIN-COMPILER-PARAMETER', message: 'parameter is not the one passed on the command line', expected: parameter ?? '(absent)', actual: req.parameter ?? '(absent)' });
  }
  const got = (req.proto_file ?? []).map((f) => f.name ?? '');
  const want = closureNames(files, set);
  const dupes = got.filter((n, i) => got.indexOf(n) !== i);
  const missing = want.filter((n) => !got.includes(n));
  const extra = got.filter((n) => !want.includes(n));
  if (dupes.length || missing.length || extra.length) {
    found.push({ requirement: 'PLUGIN-COMPILER-PROTO-FILE-CLOSURE', message: `proto_file is not the files to generate and their imports, once each: ${[...missing.map((n) => `missing ${n}`), ...extra.map((n) => `extra ${n}`), ...dupes.map((n) => `${n} twice`)].join('; ')}`, expected: want, actual: got });
  } else {
    const byName = new Map(set.map((f) => [f.name ?? '', f]));
    const changed = (req.proto_file ?? []).filter((f) => !isDeepStrictEqual(comparable(f), comparable(byName.get(f.name ?? '') ?? {})));
    if (changed.length) {
      found.push({ requirement: 'PLUGIN-COMPILER-PROTO-FILE-CLOSURE', message: `proto_file carries descriptors that differ from the descriptor set the compiler was given: ${changed.map((f) => f.name).join(', ')}`, expected: changed.map((f) => comparable(byName.get(f.name ?? '') ?? {})), actual: changed.map(comparable) });
    }
  }
  // the order of the files that are there; a missing import is the closure's finding
  const late = (req.proto_file ?? []).flatMap((f, i) => (f.dependency ?? []).filter((d) => got.indexOf(d) > i).map((d) => `${f.name ?? '?'} comes before its import ${d}`));
  if (late.length) {
    found.push({ requirement: 'PLUGIN-COMPILER-PROTO-FILE-TOPOLOGICAL', message: `proto_file is not in topological order: ${late.join('; ')}`, expected: want, actual: got });
  }
  const bad = (req.proto_file ?? []).flatMap(unqualified);
  if (bad.length) found.push({ requirement: 'PLUGIN-COMPILER-TYPE-NAMES-QUALIFIED', message: `type names that are not fully qualified: ${bad.join('; ')}`, actual: bad });
  const order = fieldOrder(bytes);
  const firstProto = order.indexOf(PROTO_FILE_FIELD);
  if (firstProto >= 0 && order.slice(firstProto).some((n) => n !== PROTO_FILE_FIELD)) {
    found.push({ requirement: 'PLUGIN-COMPILER-PROTO-FILE-LAST', message: 'proto_file is not written after the other fields', expected: 'fields 1, 2, 3 before all of field 15', actual: order });
  }
  if (req.compiler_version === undefined) {
    found.push({ requirement: 'PLUGIN-COMPILER-VERSION', message: 'compiler_version is absent', expected: 'a Version', actual: '(absent)' });
  }
  return found;
}

/**
 * `plugin.compilerRequest`: runs the compiler with one scripted plugin (`with.parameter`,
 * `with.options`, on `with.fixture` generating `with.files`) and judges the request the plugin got.
 */
export const compilerRequest = defineCheck<CompilerRequestArgs>({
  description: 'runs the compiler with one scripted plugin and judges the request the plugin got',
  args: COMPILER_REQUEST_ARGS,
  judges: COMPILER_REQUEST_JUDGES,
  run: async (ctx, args) => {
    const fixture = loadFixture(args.fixture ?? 'shop');
    const files = args.files ?? fixture.file_to_generate;
    const outParam = args.parameter;
    const options = args.options ?? [];
    const joined = [...(outParam === undefined ? [] : [outParam]), ...options];
    const out = await recordedRequest(ctx, { fixture: args.fixture ?? 'shop', files, ...(outParam === undefined ? {} : { parameter: outParam }), options });
    const bytes = out.bytes;
    if (!bytes) {
      if (wants(ctx, 'PLUGIN-COMPILER-ONE-REQUEST')) ctx.fail({ requirement: 'PLUGIN-COMPILER-ONE-REQUEST', message: `the plugin was not run (compiler exit ${out.exitCode ?? out.signal}: ${out.stderr.trim()})`, exchange: out.exchange });
      else throw new SpecgateError('SG_TARGET_PROTOCOL', `the compiler did not run the plugin (exit ${out.exitCode ?? out.signal}: ${out.stderr.trim()})`);
      return;
    }
    for (const f of judgeRequest(bytes, files, joined.length ? joined.join(',') : undefined, fixture.set.file ?? [])) {
      if (wants(ctx, f.requirement)) ctx.fail({ ...f, exchange: out.exchange });
    }
    if (wants(ctx, 'PLUGIN-COMPILER-VERSION-VALUES')) await judgeVersionValues(ctx, bytes, out.exchange);
  },
});

/** What one compiler invocation with the scripted plugin `req` showed: the request it got, and how the compiler ended. */
interface RecordedRequest {
  bytes: Uint8Array | undefined;
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  exchange: Exchange;
}

/**
 * Runs the compiler on `what` with one scripted plugin and records the request the plugin got.
 * The cases of one suite run share it, as the plugin rule cases share a plugin's answer
 * (plugin-rules.ts): several cases judge the request of the same command line, and the first
 * to ask runs the compiler for all of them. The key names the compiler as the target gives it.
 */
async function recordedRequest(ctx: CheckContext, what: { fixture: string; files: readonly string[]; parameter?: string; options: readonly string[] }): Promise<RecordedRequest> {
  const key = `plugin compiler request\u0000${stableJson({ compiler: compilerArgv(ctx), env: compilerEnv(ctx), prefix: pluginNamePrefix(ctx), ...what })}`;
  return sharedObservation(ctx, key, async (c) => {
    const fixture = loadFixture(what.fixture);
    const out = await runCompiler((spec) => c.exec(spec), {
      compiler: compilerArgv(c),
      env: compilerEnv(c),
      generators: [{ name: 'req', response: { file: [{ name: 'ok.txt', content: 'ok\n' }] }, ...(what.parameter === undefined ? {} : { parameter: what.parameter }), options: [...what.options] }],
      descriptorSet: fixture.set,
      files: [...what.files],
      pluginPrefix: pluginNamePrefix(c),
    });
    return { bytes: out.requests.get('req'), exitCode: out.exitCode, signal: out.signal, stderr: out.stderr, exchange: out.exchange };
  });
}

/**
 * PLUGIN-COMPILER-VERSION-VALUES: the compiler_version a compiler sent is its own version, as
 * `<compiler> --version` prints it (major, minor, patch and suffix; see compiler-version.ts).
 * An absent compiler_version is PLUGIN-COMPILER-VERSION's business, and a compiler that prints
 * no version leaves nothing to compare with: the case is then not applicable.
 */
async function judgeVersionValues(ctx: CheckContext, bytes: Uint8Array, exchange: Exchange): Promise<void> {
  let sent: CodeGeneratorRequest['compiler_version'];
  try {
    sent = decodeRequest(bytes).compiler_version;
  } catch {
    return; // an unparseable request is PLUGIN-COMPILER-ONE-REQUEST's finding
  }
  if (sent === undefined) return;
  const printed = await ctx.exec({ command: [...compilerArgv(ctx), '--version'], env: compilerEnv(ctx), label: 'the compiler\'s own version', timeoutMs: 30_000 });
  const version = printed.exitCode === 0 ? parsePrintedVersion(`${Buffer.from(printed.stdout).toString('utf8')}\n${printed.stderr}`) : undefined;
  if (!version) {
    ctx.notApplicable(`the compiler prints no version with --version (exit ${printed.exitCode ?? printed.signal}), so the compiler_version it sends cannot be compared with its own`);
    return;
  }
  const differences = versionDifferences(sent, version);
  if (differences.length) {
    ctx.fail({
      requirement: 'PLUGIN-COMPILER-VERSION-VALUES',
      message: `compiler_version is not the compiler's own version ${version.text} (from --version): ${differences.join('; ')}`,
      expected: version,
      actual: sent,
      exchange,
    });
  }
}
