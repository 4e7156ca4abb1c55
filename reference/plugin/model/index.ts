/** The plugin-protocol model (spec A): pure functions, no I/O. */
export { applyGenerators, applyResponses, type ApplyOptions, type ApplyResult, type GeneratorRun, type ModelError, type Tree } from './apply.js';
export { checkFileName, diskPath, type NameProblem } from './file-name.js';
export { declaresProto3Optional, featureBits, fileHasProto3Optional, proto3OptionalFilesToGenerate, unknownFeatureBits } from './features.js';
export { DEFAULT_MARKER_PREFIX, insertAtPoint, markerLine, type InsertResult } from './insertion.js';
export { validatePluginResponse, type PluginResponseOptions, type PluginViolation } from './plugin-response.js';
export { Rules, type RuleKey, type RulePair } from './rules.js';
export { annotationsOf, DEFAULT_METADATA_SUFFIX, mergeCodeInfo, parseCodeInfo, printCodeInfo, sameCodeInfo, type Annotation, type InsertionSite } from './code-info.js';
