import type { Oracle } from '../../src/engine/suite-module.js';
import { validatePluginResponse } from '../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../reference/plugin/types.js';

/**
 * `plugin.responseViolations`: for a generated `{request, response}` pair, the plugin-side
 * requirements the response breaks (spec A, Rules for File 1-3, CodeGeneratorResponse); an empty
 * list for a valid response. Steps see it as `${oracle}`.
 */
export const responseViolations: Oracle = (value) => {
  const v = value as { request?: CodeGeneratorRequest; response?: CodeGeneratorResponse };
  return validatePluginResponse(v.response ?? {}, v.request).map((x) => x.requirement);
};
