/**
 * The requirements each family of plugin checks can judge (their contracts' `judges`). A check
 * may only attribute a failure to one of these; test/suites/plugin/contracts.test.ts keeps the
 * lists in step with the model's rules (reference/plugin/model/rules.ts) and the catalog.
 */

/**
 * A plugin's answer to a valid request: an answer, exit 0, a decodable response and nothing else
 * on stdout, fields under the schema's tags, and the response rules (spec A, Rules for File 1-4).
 */
export const PLUGIN_RESPONSE_JUDGES = [
  'PLUGIN-IO-ONE-RESPONSE',
  'PLUGIN-IO-RESPONSE-DECODES',
  'PLUGIN-IO-STDOUT-ONLY-RESPONSE',
  'PLUGIN-ERROR-EXIT-ZERO',
  'PLUGIN-FILE-NAME-RELATIVE',
  'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS',
  'PLUGIN-FILE-NAME-SLASH-SEPARATOR',
  'PLUGIN-FILE-APPEND-HAS-PREVIOUS',
  'PLUGIN-FILE-NAME-ONCE',
  'PLUGIN-INSERTION-NAMES-FILE',
  'PLUGIN-INSERTION-EXISTING-FILE',
  'PLUGIN-INSERTION-POINT-MARKED',
  'PLUGIN-RESPONSE-SCHEMA-TAGS',
  'PLUGIN-ERROR-ONLY-ON-FAILURE',
  'PLUGIN-FEATURES-KNOWN-BITS',
  'PLUGIN-FEATURE-PROTO3-OPTIONAL',
] as const;

/** What a compiler writes, or refuses, for a generated invocation (spec A, Rules for File 1-6, Errors 1-2, File.generated_code_info). */
export const COMPILER_TREE_JUDGES = [
  'PLUGIN-COMPILER-OUTPUT-INSIDE',
  'PLUGIN-COMPILER-NAME-RELATIVE',
  'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS',
  'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR',
  'PLUGIN-COMPILER-APPEND',
  'PLUGIN-COMPILER-APPEND-FIRST-REJECTED',
  'PLUGIN-COMPILER-NAME-ONCE',
  'PLUGIN-COMPILER-INSERTION-EXISTING-FILE',
  'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION',
  'PLUGIN-COMPILER-INSERTION-MARKER-REQUIRED',
  'PLUGIN-COMPILER-INSERTION-PLACEMENT',
  'PLUGIN-COMPILER-INSERTION-ORDER',
  'PLUGIN-COMPILER-INSERTION-INDENT',
  'PLUGIN-COMPILER-GENERATOR-ORDER',
  'PLUGIN-COMPILER-ERROR-FAILS',
  'PLUGIN-COMPILER-FAILED-WRITES-NOTHING',
  'PLUGIN-COMPILER-PROTO3-OPTIONAL-GATE',
  'PLUGIN-COMPILER-GENERATED-CODE-INFO',
] as const;

/**
 * A scripted compiler run: the tree rules, a failing plugin (scripted plugins can exit non-zero
 * or write garbage), and finding a plugin by name (a search-path plugin that is not run leaves
 * the tree empty, reported against the case's rule).
 */
export const COMPILER_RUN_JUDGES = [...COMPILER_TREE_JUDGES, 'PLUGIN-COMPILER-PLUGIN-FAILURE', 'PLUGIN-COMPILER-BAD-RESPONSE-FAILS', 'PLUGIN-COMPILER-INVOKES-BY-NAME'] as const;

/** The request a compiler sends a plugin (spec A, CodeGeneratorRequest, Versioning 1). */
export const COMPILER_REQUEST_JUDGES = [
  'PLUGIN-COMPILER-ONE-REQUEST',
  'PLUGIN-COMPILER-FILE-TO-GENERATE',
  'PLUGIN-COMPILER-FILE-TO-GENERATE-ORDER',
  'PLUGIN-COMPILER-PARAMETER',
  'PLUGIN-COMPILER-PROTO-FILE-CLOSURE',
  'PLUGIN-COMPILER-PROTO-FILE-TOPOLOGICAL',
  'PLUGIN-COMPILER-TYPE-NAMES-QUALIFIED',
  'PLUGIN-COMPILER-PROTO-FILE-LAST',
  'PLUGIN-COMPILER-VERSION',
  'PLUGIN-COMPILER-VERSION-VALUES',
] as const;
