import { decodeResponse } from '../../../reference/plugin/codec.js';
import { validatePluginResponse } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import type { ExecResult } from '../../../src/targets/types.js';
import { isSpecgateError, type SpecgateError } from '../../../src/errors.js';

/** What a plugin did wrong on one valid request, named by the requirement it broke. */
export interface FuzzFinding {
  requirement: string;
  /** Short class of the problem: crash, timeout, exit, undecodable, too-large, rule. */
  kind: 'crash' | 'timeout' | 'exit' | 'undecodable' | 'too-large' | 'rule';
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

/**
 * Judges a finished run on a valid request: the plugin must exit 0, not die of a signal, write
 * a decodable CodeGeneratorResponse, and that response must break no plugin-side rule of the
 * reference model (names, appends, insertions, feature bits, proto3 optional).
 */
export function judgeRun(request: CodeGeneratorRequest, result: ExecResult, expected: ReadonlySet<string> = new Set()): { finding: FuzzFinding } | { answer: FuzzAnswer } {
  const facts = { exitCode: result.exitCode, signal: result.signal, stderr: head(result.stderr) };
  if (result.signal !== null) {
    return { finding: { requirement: IO, kind: 'crash', message: `the plugin died of ${result.signal} on a valid request`, ...facts } };
  }
  if (result.exitCode !== 0) {
    return {
      finding: {
        requirement: EXIT_ZERO,
        kind: 'exit',
        message: `the plugin exited with status ${String(result.exitCode)} on a valid request (a schema it cannot handle is reported in CodeGeneratorResponse.error with status 0)`,
        ...facts,
      },
    };
  }
  let response: CodeGeneratorResponse;
  try {
    response = decodeResponse(result.stdout);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { finding: { requirement: IO, kind: 'undecodable', message: `the plugin's stdout is no CodeGeneratorResponse: ${why}`, ...facts } };
  }
  // Violations the baseline expects are left out here, so another rule broken by the same
  // response is still found.
  const all = validatePluginResponse(response, request);
  const violations = all.filter((v) => !expected.has(v.requirement));
  const first = violations[0];
  if (first) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more: ${violations.slice(1).map((v) => v.requirement).join(', ')})` : '';
    return { finding: { requirement: first.requirement, kind: 'rule', message: `${first.message}${more}`, ...facts } };
  }
  return { answer: { response, errored: response.error !== undefined && response.error !== '', expected: [...new Set(all.filter((v) => expected.has(v.requirement)).map((v) => v.requirement))] } };
}
