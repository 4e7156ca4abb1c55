import { decodeResponse } from '../../../reference/plugin/codec.js';
import { validatePluginResponse } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import type { ExecResult } from '../../../src/targets/types.js';
import { isSpecgateError, type SpecgateError } from '../../../src/errors.js';
import { unknownResponseTags } from '../checks/response-tags.js';

/** What a plugin did wrong on one valid request, named by the requirement it broke. */
export interface FuzzFinding {
  requirement: string;
  /**
   * Short class of the problem: crash, timeout, exit, undecodable, too-large, rule (the answer
   * breaks a response rule), order (another wire order is answered otherwise), repeat (the same
   * bytes are answered otherwise), imports (output for files not in file_to_generate).
   */
  kind: 'crash' | 'timeout' | 'exit' | 'undecodable' | 'too-large' | 'rule' | 'order' | 'repeat' | 'imports';
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  stderr?: string;
}

/** How a plugin answered one request when it broke nothing. */
export interface FuzzAnswer {
  response: CodeGeneratorResponse;
  /** The response set `error` (allowed: the schema may be one the plugin cannot generate for). */
  errored: boolean;
  /** Requirements the response broke that the baseline expects (not findings). */
  expected: string[];
}

/** spec A, "What the service does": one request in, one encoded response out. */
const IO = 'PLUGIN-IO-ONE-RESPONSE';
/** spec A, Errors 1: problems with the schema go into `error`, and the exit status stays zero. */
const EXIT_ZERO = 'PLUGIN-ERROR-EXIT-ZERO';
/** spec A, CodeGeneratorResponse and CodeGeneratorResponse.File: fields under their tags. */
const SCHEMA_TAGS = 'PLUGIN-RESPONSE-SCHEMA-TAGS';

function head(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/**
 * Judges a run that ended with an error from the runner. A timeout or an oversized answer is
 * the plugin's fault; anything else (the executable cannot be started, an abort) is a harness
 * or configuration fault and is rethrown, so it is never reported as a conformance finding.
 */
export function judgeRunnerError(e: unknown): FuzzFinding {
  if (isSpecgateError(e) && (e.code === 'SG_TARGET_TIMEOUT' || e.code === 'SG_TARGET_TOO_LARGE')) {
    const err: SpecgateError = e;
    const stderr = typeof err.detail?.['stderr'] === 'string' ? head(err.detail['stderr']) : undefined;
    return {
      requirement: IO,
      kind: err.code === 'SG_TARGET_TIMEOUT' ? 'timeout' : 'too-large',
      message: err.code === 'SG_TARGET_TIMEOUT' ? `the plugin did not answer a valid request in time: ${err.message}` : `the plugin's answer exceeded the output cap: ${err.message}`,
      ...(stderr === undefined ? {} : { stderr }),
    };
  }
  throw e;
}

/** How an answer is judged beyond the defaults (the fuzzer sets both from the target). */
export interface AnswerOptions {
  /** `@@<compiler>_insertion_point` (var insertion_marker_prefix); the model's default otherwise. */
  markerPrefix?: string;
  /** Also judge PLUGIN-RESPONSE-SCHEMA-TAGS: fields of the answer under tags the schema lacks. */
  schemaTags?: boolean;
}

/** Everything one finished run broke, and the response when there was one. */
export interface JudgedAnswer {
  /** One finding per requirement broken, in the model's order (a crash or bad exit is the only one). */
  findings: FuzzFinding[];
  response?: CodeGeneratorResponse;
}

/**
 * Judges a finished run on a valid request by every rule at once: the plugin must exit 0, not
 * die of a signal, write a decodable CodeGeneratorResponse, write its fields under the schema's
 * tags (when asked), and break no plugin-side rule of the reference model. Violations of one rule
 * become one finding that counts the rest.
 */
export function judgeAnswer(request: CodeGeneratorRequest, result: ExecResult, opts: AnswerOptions = {}): JudgedAnswer {
  const facts = { exitCode: result.exitCode, signal: result.signal, stderr: head(result.stderr) };
  if (result.signal !== null) {
    return { findings: [{ requirement: IO, kind: 'crash', message: `the plugin died of ${result.signal} on a valid request`, ...facts }] };
  }
  if (result.exitCode !== 0) {
    return {
      findings: [
        {
          requirement: EXIT_ZERO,
          kind: 'exit',
          message: `the plugin exited with status ${String(result.exitCode)} on a valid request (a schema it cannot handle is reported in CodeGeneratorResponse.error with status 0)`,
          ...facts,
        },
      ],
    };
  }
  let response: CodeGeneratorResponse;
  try {
    response = decodeResponse(result.stdout);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { findings: [{ requirement: IO, kind: 'undecodable', message: `the plugin's stdout is no CodeGeneratorResponse: ${why}`, ...facts }] };
  }
  const findings: FuzzFinding[] = [];
  if (opts.schemaTags) {
    // the same account of stray tags as `specgate run` gives (checks/response-tags.ts)
    const tags = unknownResponseTags(result.stdout);
    if (tags.length > 0) {
      const listed = tags.slice(0, 5).join('; ');
      findings.push({ requirement: SCHEMA_TAGS, kind: 'rule', message: `the response carries fields under tags the schema does not define, which a compiler skips: ${listed}${tags.length > 5 ? `; and ${tags.length - 5} more` : ''}`, ...facts });
    }
  }
  const byRule = new Map<string, string[]>();
  for (const v of validatePluginResponse(response, request, opts.markerPrefix === undefined ? {} : { markerPrefix: opts.markerPrefix })) {
    byRule.set(v.requirement, [...(byRule.get(v.requirement) ?? []), v.message]);
  }
  for (const [requirement, messages] of byRule) {
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more of this rule in the same response)` : '';
    findings.push({ requirement, kind: 'rule', message: `${messages[0] ?? ''}${more}`, ...facts });
  }
  return { findings, response };
}

/**
 * Judges a finished run on a valid request and names the first requirement broken that the
 * baseline does not expect (see {@link judgeAnswer}); the others are counted in its message.
 */
export function judgeRun(request: CodeGeneratorRequest, result: ExecResult, expected: ReadonlySet<string> = new Set(), opts: AnswerOptions = {}): { finding: FuzzFinding } | { answer: FuzzAnswer } {
  const judged = judgeAnswer(request, result, opts);
  // Violations the baseline expects are left out here, so another rule broken by the same
  // response is still found.
  const violations = judged.findings.filter((f) => !expected.has(f.requirement));
  const first = violations[0];
  if (first) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more: ${violations.slice(1).map((v) => v.requirement).join(', ')})` : '';
    return { finding: { ...first, message: `${first.message}${more}` } };
  }
  const response = judged.response ?? {};
  return { answer: { response, errored: response.error !== undefined && response.error !== '', expected: judged.findings.map((f) => f.requirement) } };
}
