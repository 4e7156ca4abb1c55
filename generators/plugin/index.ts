import type { GeneratorContext, GeneratorFactory } from '../../src/engine/suite-module.js';
import { brokenPluginExchange } from './broken-code-generator-response.js';
import { codeGeneratorRequest } from './code-generator-request.js';
import { pluginExchange } from './code-generator-response.js';
import { fileDescriptorSet } from './file-descriptor-set.js';

/**
 * Generators of the plugin suite (spec A), for registration in its SuiteModule: YAML refers to
 * them as `plugin.<name>`. Insertion markers follow var `insertion_marker_prefix` when the
 * target sets it (`@@<compiler>_insertion_point`, spec A, Rules for File, rule 4).
 */
function markerPrefix(ctx: GeneratorContext): { markerPrefix?: string } {
  const v = ctx.vars['insertion_marker_prefix'];
  return typeof v === 'string' && v !== '' ? { markerPrefix: v } : {};
}

export const pluginGenerators: Record<string, GeneratorFactory> = {
  fileDescriptorSet: () => fileDescriptorSet(),
  codeGeneratorRequest: () => codeGeneratorRequest(),
  pluginExchange: (ctx) => pluginExchange(markerPrefix(ctx)),
  brokenPluginExchange: (ctx) => brokenPluginExchange(markerPrefix(ctx)),
};
