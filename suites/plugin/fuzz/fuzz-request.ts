import fc from 'fast-check';
import { codeGeneratorRequest } from '../../../generators/plugin/code-generator-request.js';
import type { CodeGeneratorRequestValue } from '../../../generators/plugin/descriptor-types.js';

/**
 * The parameters the target says its plugin understands (var plugin_parameters: a list or one
 * string). Without it the fuzzer sends no parameter: what a parameter means is up to each plugin,
 * and refusing an unknown one is no fault on a request that is otherwise valid.
 */
export function targetParameters(vars: Readonly<Record<string, unknown>>): string[] {
  const v = vars['plugin_parameters'];
  if (Array.isArray(v)) return v.filter((p) => p !== null && p !== undefined && p !== '').map(String);
  return typeof v === 'string' && v !== '' ? [v] : [];
}

/**
 * Valid CodeGeneratorRequests for fuzzing a plugin (spec A, CodeGeneratorRequest), with the
 * parameter taken from the target's list (or none).
 */
export function fuzzRequest(parameters: readonly string[]): fc.Arbitrary<CodeGeneratorRequestValue> {
  return fc.tuple(codeGeneratorRequest(), fc.nat()).map(([generated, pick]) => {
    const { parameter: _random, ...request } = generated;
    const chosen = parameters.length > 0 ? parameters[pick % parameters.length] : undefined;
    return chosen === undefined ? request : { ...request, parameter: chosen };
  });
}
