/**
 * Requirement IDs of the plugin suite that the model names when it rejects something. The
 * catalog (`suites/plugin/requirements.yaml`) holds their text; a lint test keeps both in step.
 *
 * Each rule of spec A binds both sides differently: a plugin must not produce the bad thing
 * (`plugin`), a compiler must refuse it or apply it correctly (`compiler`).
 */
export interface RulePair {
  /** What the plugin broke when its response contains this (absent: only a compiler can tell). */
  plugin?: string;
  /** What a compiler breaks when it does not reject or apply this as the model does (absent: compilers are free). */
  compiler?: string;
}

export const Rules = {
  /** spec A, Rules for File, rule 1: relative, inside the output directory. */
  nameRelative: { plugin: 'PLUGIN-FILE-NAME-RELATIVE', compiler: 'PLUGIN-COMPILER-NAME-RELATIVE' },
  /** spec A, Rules for File, rule 1: no `.` or `..` components. */
  nameDotComponents: { plugin: 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', compiler: 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS' },
  /** spec A, Rules for File, rule 1: `/` separators, never a backslash. */
  nameSeparator: { plugin: 'PLUGIN-FILE-NAME-SLASH-SEPARATOR', compiler: 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR' },
  /** spec A, Rules for File, rule 2: a nameless File continues the previous one, so it cannot come first. */
  appendFirst: { plugin: 'PLUGIN-FILE-APPEND-HAS-PREVIOUS', compiler: 'PLUGIN-COMPILER-APPEND-FIRST-REJECTED' },
  /** spec A, Rules for File, rule 2 (a name starts a new file; continuing one is done by omitting it). */
  nameOnce: { plugin: 'PLUGIN-FILE-NAME-ONCE', compiler: 'PLUGIN-COMPILER-NAME-ONCE' },
  /** spec A, Rules for File, rule 3: an insertion names its file. */
  insertionName: { plugin: 'PLUGIN-INSERTION-NAMES-FILE', compiler: 'PLUGIN-COMPILER-INSERTION-EXISTING-FILE' },
  /** spec A, Rules for File, rules 3 and 6: the named file already exists (generated earlier in this invocation). */
  insertionTarget: { plugin: 'PLUGIN-INSERTION-EXISTING-FILE', compiler: 'PLUGIN-COMPILER-INSERTION-EXISTING-FILE' },
  /**
   * spec A, Rules for File, rule 6: a file an earlier compiler run left in the output directory
   * was not generated in this invocation, so it cannot be inserted into.
   */
  insertionStale: { compiler: 'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION' },
  /** spec A, Rules for File, rule 4: the insertion point is marked in the file. */
  insertionMarker: { plugin: 'PLUGIN-INSERTION-POINT-MARKED', compiler: 'PLUGIN-COMPILER-INSERTION-MARKER-REQUIRED' },
  /** spec A, CodeGeneratorResponse.supported_features: values of the Feature enum only. */
  featureBits: { plugin: 'PLUGIN-FEATURES-KNOWN-BITS' },
  /** spec A, Feature FEATURE_PROTO3_OPTIONAL. */
  proto3Optional: { plugin: 'PLUGIN-FEATURE-PROTO3-OPTIONAL', compiler: 'PLUGIN-COMPILER-PROTO3-OPTIONAL-GATE' },
  /** spec A, CodeGeneratorResponse.error and Errors 1: `error` is set only when generation failed, so no files come with it. */
  errorWithFiles: { plugin: 'PLUGIN-ERROR-ONLY-ON-FAILURE' },
  /** spec A, Errors 1: a non-empty `error` means generation failed. */
  errorSet: { plugin: 'PLUGIN-ERROR-EXIT-ZERO', compiler: 'PLUGIN-COMPILER-ERROR-FAILS' },
} as const satisfies Record<string, RulePair>;

export type RuleKey = keyof typeof Rules;
