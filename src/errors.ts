/**
 * The one error type specgate throws on purpose. Every error has a stable `code`
 * (documented in README "Exit codes" and docs/reports.md) and a message that says what to do.
 */
export type SpecgateErrorCode =
  | 'SG_USAGE' // bad command-line usage
  | 'SG_CONFIG' // bad target profile, baseline or option value
  | 'SG_SUITE_SYNTAX' // a suite file is not valid YAML
  | 'SG_SUITE_SCHEMA' // a suite file breaks its JSON Schema or a cross-reference rule
  | 'SG_SUITE_UNKNOWN' // a named suite, case, generator, oracle, check or codec does not exist
  | 'SG_EXPRESSION' // a ${...} expression cannot be parsed or evaluated
  | 'SG_TARGET_UNREACHABLE' // connection refused, DNS failure, spawn failure
  | 'SG_TARGET_TIMEOUT' // the target did not answer in time
  | 'SG_TARGET_TOO_LARGE' // the target answered more bytes than the cap
  | 'SG_TARGET_PROTOCOL' // the target answered something that is not the expected wire format
  | 'SG_TARGET_THROTTLED' // the target kept answering 429 (or 503 with Retry-After) past --max-wait
  | 'SG_CASE_TIMEOUT' // a whole case took longer than its timeout
  | 'SG_INTERNAL'; // a bug in specgate

/** Exit code category an error maps to (see README "Exit codes"). */
export function exitCodeFor(code: SpecgateErrorCode): 2 | 3 {
  switch (code) {
    case 'SG_USAGE':
    case 'SG_CONFIG':
    case 'SG_SUITE_SYNTAX':
    case 'SG_SUITE_SCHEMA':
    case 'SG_SUITE_UNKNOWN':
    case 'SG_EXPRESSION':
      return 2;
    default:
      return 3;
  }
}

export class SpecgateError extends Error {
  readonly code: SpecgateErrorCode;
  /** Extra, already-redacted detail for reports (file positions, byte counts, stderr). */
  readonly detail: Record<string, unknown> | undefined;

  constructor(code: SpecgateErrorCode, message: string, detail?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpecgateError';
    this.code = code;
    this.detail = detail;
  }
}

/** Many problems at once (e.g. every schema violation in one suite file). */
export class SpecgateErrorList extends SpecgateError {
  readonly errors: readonly SpecgateError[];

  constructor(errors: readonly SpecgateError[]) {
    const first = errors[0];
    super(
      first?.code ?? 'SG_INTERNAL',
      errors.map((e) => e.message).join('\n'),
      { count: errors.length },
    );
    this.errors = errors;
  }
}

export function isSpecgateError(e: unknown): e is SpecgateError {
  return e instanceof SpecgateError;
}

/** Turns anything thrown into a SpecgateError, keeping typed ones as they are. */
export function asSpecgateError(e: unknown, fallback: SpecgateErrorCode = 'SG_INTERNAL'): SpecgateError {
  if (e instanceof SpecgateError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new SpecgateError(fallback, message, undefined, { cause: e });
}
