import fc from 'fast-check';
import { DEFAULT_MARKER_PREFIX } from '../../reference/plugin/model/insertion.js';
import { codeGeneratorRequest, type RequestOptions } from './code-generator-request.js';
import type { CodeGeneratorRequestValue, CodeGeneratorResponseValue } from './descriptor-types.js';
import { buildResponse, responsePlan } from './response-plan.js';

export interface ResponseOptions {
  /** `@@<compiler>_insertion_point`; `@@protoc_insertion_point` by default (spec A, Rules for File, rule 4). */
  markerPrefix?: string;
}

/**
 * Valid CodeGeneratorResponses for `request` (spec A, CodeGeneratorResponse and Rules for File
 * 1-5): relative names with `/` separators and no `.`/`..` components, each named once;
 * nameless chunks appended to the file before them; insertions (named, non-empty point) into
 * files created earlier in the same response, at markers that sit on lines with text around
 * them and leading whitespace; FEATURE_PROTO3_OPTIONAL declared whenever a file to generate has
 * a proto3 `optional` field, otherwise only known feature bits.
 */
export function codeGeneratorResponse(request: CodeGeneratorRequestValue, opts: ResponseOptions = {}): fc.Arbitrary<CodeGeneratorResponseValue> {
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  return responsePlan.map((plan) => buildResponse(request, plan, prefix).response);
}

/** A request with a valid response to it, generated side by side so both shrink. */
export interface PluginExchangeValue {
  request: CodeGeneratorRequestValue;
  response: CodeGeneratorResponseValue;
}

/** Valid request/response pairs: what a conformant plugin could answer to a valid request. */
export function pluginExchange(opts: RequestOptions & ResponseOptions = {}): fc.Arbitrary<PluginExchangeValue> {
  const prefix = opts.markerPrefix ?? DEFAULT_MARKER_PREFIX;
  return fc.tuple(codeGeneratorRequest(opts), responsePlan).map(([request, plan]) => ({ request, response: buildResponse(request, plan, prefix).response }));
}
