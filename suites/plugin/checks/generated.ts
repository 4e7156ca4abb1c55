import type * as fc from 'fast-check';
import { codeGeneratorRequest } from '../../../generators/plugin/code-generator-request.js';
import { pluginExchange } from '../../../generators/plugin/code-generator-response.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';

/**
 * The generated values the plugin suite uses, from generators/plugin, in the shapes of
 * reference/plugin/types.ts (the generator's value types are the same shapes, declared apart).
 */

/**
 * Valid requests for running a plugin. The generated `parameter` is left out: what a parameter
 * means is up to each plugin, and a plugin may refuse one it does not know.
 */
export function generatedRequests(): fc.Arbitrary<CodeGeneratorRequest> {
  return codeGeneratorRequest().map((r) => {
    const req: CodeGeneratorRequest = { file_to_generate: r.file_to_generate, proto_file: r.proto_file };
    if (r.compiler_version) req.compiler_version = r.compiler_version;
    return req;
  });
}

/** Valid request/response pairs (what a conformant plugin could answer). */
export function generatedExchanges(markerPrefix?: string): fc.Arbitrary<{ request: CodeGeneratorRequest; response: CodeGeneratorResponse }> {
  return pluginExchange(markerPrefix === undefined ? {} : { markerPrefix }).map((x) => ({ request: x.request, response: x.response }));
}
