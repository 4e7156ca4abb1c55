import type { FailureInput } from '../../../src/engine/suite-module.js';
import { proto3OptionalFilesToGenerate, validatePluginResponse } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { describeResponse, type PluginRun } from './support.js';

/**
 * What a plugin's answer to one valid request breaks, and which rules it let be judged at all
 * (spec A: What the service does, Endpoints, Rules for File 1-4, CodeGeneratorResponse and its
 * tags, Errors 1-2). A parseable request leaves a plugin no reason to exit non-zero: Errors 2
 * reserves that for requests it cannot parse, and schema problems go to `error` with status 0
 * (Errors 1).
 */

/** A failure found in an answer, with the requirement it breaks. */
export type Found = FailureInput & { requirement: string };

/**
 * Violations of one rule in one answer reported one by one; the rest are counted in one more
 * failure, so that an answer of ten thousand bad files costs a report a few lines, not ten
 * thousand.
 */
const LISTED_VIOLATIONS = 10;

const ONE_RESPONSE = 'PLUGIN-IO-ONE-RESPONSE';
const DECODES = 'PLUGIN-IO-RESPONSE-DECODES';
const STDOUT_ONLY = 'PLUGIN-IO-STDOUT-ONLY-RESPONSE';
const EXIT_ZERO = 'PLUGIN-ERROR-EXIT-ZERO';
const SCHEMA_TAGS = 'PLUGIN-RESPONSE-SCHEMA-TAGS';
const PROTO3_OPTIONAL = 'PLUGIN-FEATURE-PROTO3-OPTIONAL';
/** Rules the model judges on a response that sets `error` (its files are not looked at then). */
const JUDGED_WITH_ERROR = new Set(['PLUGIN-FEATURES-KNOWN-BITS', 'PLUGIN-ERROR-ONLY-ON-FAILURE', SCHEMA_TAGS]);

/** The request an answer was for, in a failure's `expected`/`actual` terms. */
function requestFacts(req: CodeGeneratorRequest): unknown {
  return { file_to_generate: req.file_to_generate ?? [], parameter: req.parameter, proto_file: (req.proto_file ?? []).map((f) => f.name) };
}

/**
 * Whether `requirement` applies to `req` at all: FEATURE_PROTO3_OPTIONAL only to requests whose
 * files to generate declare proto3 optional fields; every other rule to every request.
 */
export function appliesTo(requirement: string, req: CodeGeneratorRequest): boolean {
  return requirement !== PROTO3_OPTIONAL || proto3OptionalFilesToGenerate(req).length > 0;
}

/**
 * Whether `run` gave `requirement` something to judge: a plugin that never answered leaves only
 * the answering rule to judge; one that exited non-zero, only its exit status; one whose output
 * is no response, only the output; and a response that sets `error` leaves its files unjudged.
 */
export function judgedBy(requirement: string, run: PluginRun): boolean {
  if (requirement === ONE_RESPONSE) return true;
  if (run.noAnswer !== undefined) return false;
  if (requirement === EXIT_ZERO) return true;
  if (run.result.exitCode !== 0) return false;
  if (requirement === DECODES || requirement === STDOUT_ONLY) return true;
  if (!run.response) return false;
  return !run.response.error || JUDGED_WITH_ERROR.has(requirement);
}

const ONLY_ON_FAILURE = 'PLUGIN-ERROR-ONLY-ON-FAILURE';

/**
 * The rule an answer to a valid request broke by not being a plain success, when it broke one:
 * no answer (PLUGIN-IO-ONE-RESPONSE), a non-zero exit (PLUGIN-ERROR-EXIT-ZERO, Errors 1), output
 * that is no response (PLUGIN-IO-RESPONSE-DECODES), or `error` set beside generated files
 * (PLUGIN-ERROR-ONLY-ON-FAILURE). A response that sets `error` and carries no files breaks
 * nothing by itself (the plugin says it cannot generate for the schema): undefined.
 */
export function brokenBy(run: PluginRun): string | undefined {
  if (run.noAnswer !== undefined) return ONE_RESPONSE;
  if (run.result.exitCode !== 0) return EXIT_ZERO;
  if (!run.response) return DECODES;
  if (run.response.error && (run.response.file ?? []).length > 0) return ONLY_ON_FAILURE;
  return undefined;
}

/** Why `run` left `requirement` nothing to judge, for a "not judged" report. */
export function unjudgedBecause(run: PluginRun): string {
  if (run.noAnswer !== undefined) return 'no answer';
  if (run.result.exitCode !== 0) return `exit ${run.result.exitCode ?? run.result.signal}`;
  if (!run.response) return 'no response in its output';
  return 'a response that sets error, so its files were not looked at';
}

/** Everything an answer to a valid request breaks, every rule of the response family at once. */
export function answerFindings(run: PluginRun, req: CodeGeneratorRequest, prefix: string): Found[] {
  const found: Found[] = [];
  const files = (req.file_to_generate ?? []).join(', ');
  if (run.noAnswer !== undefined) {
    // spec A, What the service does: every request gets its one response; silence is none
    found.push({
      requirement: ONE_RESPONSE,
      message: `${run.noAnswer} (file_to_generate: ${files}${req.parameter ? `, parameter: ${req.parameter}` : ''}); every request must get one CodeGeneratorResponse (if the plugin is only slow, raise exec.timeoutMs in the target profile)`,
      expected: 'one CodeGeneratorResponse on stdout, then exit',
      actual: { answer: 'none', request: requestFacts(req), stderr: run.result.stderr },
      exchange: run.exchange,
    });
    return found;
  }
  if (run.result.exitCode !== 0) {
    found.push({
      requirement: EXIT_ZERO,
      message: `the plugin exited with status ${run.result.exitCode ?? run.result.signal} on a valid request (file_to_generate: ${files}); only an unparseable request may end with a non-zero status, problems with the schema belong in CodeGeneratorResponse.error with status 0`,
      expected: { exitCode: 0 },
      actual: { exitCode: run.result.exitCode, signal: run.result.signal, stderr: run.result.stderr },
      exchange: run.exchange,
    });
    return found;
  }
  if (!run.response) {
    // spec A, Endpoints: the answer is in the binary wire format of the schema language
    found.push({
      requirement: DECODES,
      message: `stdout is not an encoded CodeGeneratorResponse: ${run.decodeError ?? 'nothing decoded'}`,
      expected: 'one CodeGeneratorResponse in the binary wire format',
      actual: { stdoutBytes: run.result.stdout.length, head: Buffer.from(run.result.stdout.subarray(0, 64)).toString('hex') },
      exchange: run.exchange,
    });
    return found;
  }
  // one description serves every failure of this answer
  const actual = describeResponse(run.response);
  if (run.strayOutput) {
    const s = run.strayOutput;
    found.push({
      requirement: STDOUT_ONLY,
      message: `stdout holds ${s.bytes} byte(s) ${s.position === 'before' ? 'of text before' : 'after'} the encoded CodeGeneratorResponse (file_to_generate: ${files}): ${JSON.stringify(s.head)}; only the response may be written to stdout (log to stderr)`,
      expected: 'the encoded CodeGeneratorResponse and nothing else',
      actual: { strayOutput: s, response: actual },
      exchange: run.exchange,
    });
  }
  if (run.unknownTags) {
    found.push({
      requirement: SCHEMA_TAGS,
      message: `the response carries fields under tags the schema does not define, which a compiler skips (file_to_generate: ${files}): ${run.unknownTags.slice(0, LISTED_VIOLATIONS).join('; ')}${run.unknownTags.length > LISTED_VIOLATIONS ? `; and ${run.unknownTags.length - LISTED_VIOLATIONS} more` : ''}`,
      expected: 'CodeGeneratorResponse: error 1, supported_features 2, file 15; File: name 1, insertion_point 2, content 15, generated_code_info 16',
      actual,
      exchange: run.exchange,
    });
  }
  const perRule = new Map<string, number>();
  for (const v of validatePluginResponse(run.response, req, { markerPrefix: prefix })) {
    const seen = (perRule.get(v.requirement) ?? 0) + 1;
    perRule.set(v.requirement, seen);
    if (seen <= LISTED_VIOLATIONS) found.push({ requirement: v.requirement, message: `${v.message} (file_to_generate: ${files})`, actual, exchange: run.exchange });
  }
  for (const [requirement, count] of perRule) {
    if (count <= LISTED_VIOLATIONS) continue;
    found.push({ requirement, message: `and ${count - LISTED_VIOLATIONS} more files break this rule in the same response (file_to_generate: ${files}); the first ${LISTED_VIOLATIONS} are listed`, actual, exchange: run.exchange });
  }
  return found;
}

/**
 * Tallies, per requirement, the inputs it applies to and those whose answer let it be judged
 * (the evidence count). A requirement no input applied to (a fixture subset without proto3
 * optional fields, say) has nothing to judge; one that applied to some input but was judged on
 * none has nothing to judge either: every answer it needed ended without anything to look at
 * (the plugin crashed, hung, or wrote no response). Neither is ever reported passed.
 */
export class JudgedTally {
  private readonly applied = new Map<string, string[]>();
  private readonly judged = new Map<string, number>();
  /** Per requirement, the rules the answers that left it unjudged broke (see {@link brokenBy}). */
  private readonly blockers = new Map<string, Set<string | undefined>>();

  constructor(private readonly requirements: readonly string[]) {}

  /** Counts one answer: `label` names its input in the report; `broke` is the rule the answer broke by not being a plain success. */
  add(label: string, applies: (id: string) => boolean, judged: (id: string) => boolean, why: string, broke?: string): void {
    for (const id of this.requirements) {
      if (!applies(id)) continue;
      if (judged(id)) {
        this.judged.set(id, (this.judged.get(id) ?? 0) + 1);
        continue;
      }
      this.applied.set(id, [...(this.applied.get(id) ?? []), `${label}: ${why}`]);
      this.blockers.set(id, (this.blockers.get(id) ?? new Set()).add(broke));
    }
  }

  /** How many answers judged `id`. */
  observed(id: string): number {
    return this.judged.get(id) ?? 0;
  }

  /**
   * The one rule every unjudged answer for `id` broke by setting `error` beside its files, when
   * that is why nothing judged it: the requirement is blocked by that rule, not merely untested.
   */
  blockedBy(id: string): string | undefined {
    if (this.observed(id) > 0) return undefined;
    const by = [...(this.blockers.get(id) ?? [])];
    return by.length === 1 && by[0] === ONLY_ON_FAILURE && id !== ONLY_ON_FAILURE ? ONLY_ON_FAILURE : undefined;
  }

  /** Why nothing judged `id` (undefined when something did). */
  reason(id: string, none: string): string | undefined {
    if (this.observed(id) > 0) return undefined;
    const inputs = this.applied.get(id);
    if (!inputs) return `not judged: ${id}: ${none}`;
    return `not judged: ${id}: every input it applies to ended without anything to judge (${inputs.slice(0, 5).join('; ')}${inputs.length > 5 ? `; and ${inputs.length - 5} more` : ''})`;
  }
}
