import fc from 'fast-check';
import { codeGeneratorRequest } from '../../../generators/plugin/code-generator-request.js';
import type { CodeGeneratorRequestValue, FileDescriptorValue } from '../../../generators/plugin/descriptor-types.js';
import type { FieldOrder } from '../../../reference/plugin/wire.js';
import { parameterPlan, parameterText } from '../../../generators/plugin/plugin-parameter.js';
import { givenParameters } from '../checks/given-parameters.js';

/**
 * The parameters the target says its plugin takes (var plugin_parameters: a list or one
 * string); empty when it names none, and the fuzzer then generates them
 * (generators/plugin/plugin-parameter.ts).
 */
export function targetParameters(vars: Readonly<Record<string, unknown>>): string[] {
  return (givenParameters(vars) ?? []).filter((p): p is string => p !== undefined);
}

/**
 * Whether every file gets a `go_package` option (var fuzz_go_package). Go generators refuse a
 * file without one; setting it lets a fuzz run get past that and reach the rest of the plugin.
 */
export function wantsGoPackage(vars: Readonly<Record<string, unknown>>): boolean {
  const v = vars['fuzz_go_package'];
  return v === true || v === 'true' || v === '1';
}

/** A file with a `go_package` option (an import path unique to the file), unless it has one. */
function withGoPackage(file: FileDescriptorValue): FileDescriptorValue {
  if (file.options?.goPackage !== undefined) return file;
  const ident = file.name.replace(/\.proto$/, '').replace(/[^A-Za-z0-9]/g, '_');
  return { ...file, options: { ...file.options, goPackage: `example.com/gen/${ident};p_${ident}` } };
}

export interface FuzzRequestOptions {
  parameters: readonly string[];
  goPackage: boolean;
}

/**
 * Valid CodeGeneratorRequests for fuzzing a plugin (spec A, CodeGeneratorRequest), with the
 * parameter taken from the target's list or, when it names none, generated for about half of
 * the requests (items the reference plugin takes, written for the request's files; the other
 * half keeps no parameter, the form every plugin takes), and, on request, a go_package
 * everywhere. The plan is drawn after the request, so it shrinks away on its own.
 */
export function fuzzRequest(opts: FuzzRequestOptions): fc.Arbitrary<CodeGeneratorRequestValue> {
  const plan = fc.option(parameterPlan, { nil: undefined, freq: 2 });
  return fc.tuple(codeGeneratorRequest(), fc.nat(), plan).map(([generated, pick, drawn]) => {
    const { parameter: _random, ...request } = generated;
    const chosen = opts.parameters.length > 0 ? opts.parameters[pick % opts.parameters.length] : drawn === undefined ? undefined : parameterText(drawn, request.file_to_generate);
    const out: CodeGeneratorRequestValue = chosen === undefined ? request : { ...request, parameter: chosen };
    return opts.goPackage ? { ...out, proto_file: out.proto_file.map(withGoPackage) } : out;
  });
}

/**
 * The wire orders a request is also sent in (spec A, CodeGeneratorRequest: "the wire format does
 * not guarantee field order"), simplest first: fast-check shrinks towards the first.
 */
export const FIELD_ORDERS: readonly FieldOrder[] = ['proto-file-first', 'interleaved', 'reversed'];

/** One generated input: a valid request, and the other wire order it is also sent in. */
export interface FuzzCase {
  request: CodeGeneratorRequestValue;
  order: FieldOrder;
}

/**
 * Requests with a field order each. The order is drawn after the request, so a seed gives the
 * same requests it gave before orders were drawn, and a replay gives the same order (and bytes).
 */
export function fuzzCase(opts: FuzzRequestOptions): fc.Arbitrary<FuzzCase> {
  return fc.tuple(fuzzRequest(opts), fc.constantFrom(...FIELD_ORDERS)).map(([request, order]) => ({ request, order }));
}

/** Name of the file of the control request; no generated file is named like it. */
export const CONTROL_FILE = 'specgate_fuzz_control.proto';

/**
 * A request for one small file of its own that imports nothing, with the request's parameter:
 * what a plugin writes for it beside that file's own output, it writes whatever it is asked
 * (a runtime file, say). See import-output.ts.
 */
export function controlRequest(request: CodeGeneratorRequestValue, opts: Pick<FuzzRequestOptions, 'goPackage'>): CodeGeneratorRequestValue {
  const file: FileDescriptorValue = { name: CONTROL_FILE, package: 'specgate_fuzz_control', syntax: 'proto3', messageType: [{ name: 'Control' }] };
  const out: CodeGeneratorRequestValue = { file_to_generate: [CONTROL_FILE], proto_file: [opts.goPackage ? withGoPackage(file) : file] };
  return request.parameter === undefined ? out : { ...out, parameter: request.parameter };
}
