import { getPath } from '../json-path.js';
import { match, matchInto, type BodyFormat, type MatchContext, type Mismatch } from '../../checks/matchers.js';
import type { Exchange } from '../model.js';
import { bodyKind, undecodedMessage as undecodedBodyMessage, type BodyKind } from '../../targets/body-parse.js';
import { BODY_PREVIEW_CHARS, redactedPreview } from '../../targets/text-cut.js';
import type { StepScope } from './step-scope.js';

/**
 * What one attempt of a step observed, in a shape expectations and captures can read the same
 * way for HTTP responses, process runs and user-agent actions.
 */
export interface Observation {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: unknown;
  bodyText?: string;
  exitCode?: number | null;
  stdout?: unknown;
  stderr?: string;
  /** Value `$...` captures read from (parsed body, decoded stdout, agent result). */
  data?: unknown;
  /** The body claims JSON or XML (Content-Type) but does not parse: a finding, not a harness fault. */
  parseError?: string;
  /** The body format the request asked for (its Accept), when it names one specgate decodes. */
  asked?: BodyKind;
  /** What answered, for messages that name where a value came from ("POST /login/device/code"). */
  label?: string;
  exchange: () => Exchange;
}

/** How much of a body that does not parse its failure quotes. */
export const UNPARSED_BODY_CHARS = 300;

/** Matching an observation: the matchers' context, and how to mask the target's secrets in a text before it is cut. */
export interface ObservationContext extends MatchContext {
  redact(text: string): string;
}

/**
 * The message of a body that was not decoded, led by the decoder's own error:
 * `the body is not JSON: Unexpected token '<', ... (first bytes: "<html>…")`. Undefined when
 * the body decoded (or is empty). The body's text is masked before it is cut.
 */
export function undecodedMessage(obs: Observation, redact: (text: string) => string): string | undefined {
  if (obs.body !== undefined || obs.bodyText === undefined) return undefined;
  return undecodedBodyMessage(contentTypeOf(obs), obs.bodyText, obs.asked, redact);
}

/**
 * A body that does not decode fails an expectation on it with one failure that leads with the
 * decoding error, never with one failure per field the matcher then misses. A body that claims
 * JSON or XML and does not parse fails every expectation on it; one that claims no format fails
 * only the expectations it does not meet (`$absent: true` still holds of it).
 */
function undecodedBody(obs: Observation, m: unknown, ctx: ObservationContext, found: () => Mismatch[]): Mismatch[] {
  const mismatches = obs.parseError === undefined ? found() : undefined;
  if (mismatches && mismatches.length === 0) return mismatches;
  const message = undecodedMessage(obs, ctx.redact) ?? (obs.parseError !== undefined ? `the body does not parse as its Content-Type claims (${obs.parseError})` : undefined);
  if (message === undefined) return mismatches ?? [];
  return [{ path: '', message, expected: m, actual: bodyPreview(obs.bodyText, ctx.redact, UNPARSED_BODY_CHARS) }];
}

function contentTypeOf(obs: Observation): string | undefined {
  const ct = obs.headers?.['content-type'];
  return typeof ct === 'string' ? ct : Array.isArray(ct) ? ct[0] : undefined;
}

/** The format of a decoded body, for typed comparisons' messages (undefined when nothing was decoded). */
function formatOf(obs: Observation): BodyFormat | undefined {
  if (obs.body === undefined) return undefined;
  const kind = bodyKind(contentTypeOf(obs));
  return kind ? { kind, ...(obs.asked ? { asked: obs.asked } : {}) } : undefined;
}

/** `ctx` for matching a decoded body of `format`: made field by field, as this is on the way of every body matched. */
function withBodyFormat(ctx: MatchContext, format: BodyFormat): MatchContext {
  const out: MatchContext = { bodyFormat: format };
  if (ctx.schema) out.schema = ctx.schema;
  if (ctx.each) out.each = ctx.each;
  return out;
}

/** A mismatch as a failure message: its path (none for the body as a whole), then what is wrong. */
export function mismatchText(m: Mismatch): string {
  return m.path === '' ? m.message : `${m.path}: ${m.message}`;
}

/** Named parts of an expectation and where each is read from the observation. */
export function expectationMismatches(obs: Observation, expect: object, ctx: ObservationContext, headerName: (n: string) => string): Mismatch[] {
  const out: Mismatch[] = [];
  for (const key of Object.keys(expect)) {
    const m = (expect as Record<string, unknown>)[key];
    switch (key) {
      case 'status':
        matchInto(out, obs.status, m, ctx, 'status');
        break;
      case 'headers':
        for (const [name, hm] of Object.entries(m as Record<string, unknown>)) {
          const real = headerName(name).toLowerCase();
          matchInto(out, obs.headers?.[real], hm, ctx, `header ${real}`);
        }
        break;
      case 'body':
      case 'schema': {
        const matcher = key === 'body' ? m : { $schema: m };
        if (obs.parseError === undefined) {
          // the usual case, a body that decoded (or claims no format): matched as it is
          const format = formatOf(obs);
          const before = out.length;
          matchInto(out, obs.body, matcher, format ? withBodyFormat(ctx, format) : ctx, '$');
          if (out.length === before) break;
          const found = out.splice(before);
          out.push(...undecodedBody(obs, matcher, ctx, () => found));
        } else out.push(...undecodedBody(obs, matcher, ctx, () => []));
        break;
      }
      case 'exitCode':
        matchInto(out, obs.exitCode, m, ctx, 'exit code');
        break;
      case 'stdout': {
        const found = match(obs.stdout, m, ctx, 'stdout');
        // stdout a codec could not decode: one failure with the codec's error, not one per field
        const undecodable = found.length ? undecodableStdout(obs.stdout) : undefined;
        out.push(...(undecodable === undefined ? found : [{ path: '', message: `stdout does not decode as ${undecodable}`, expected: m, actual: obs.stdout }]));
        break;
      }
      case 'stderr':
        matchInto(out, obs.stderr, m, ctx, 'stderr');
        break;
      default:
        break; // `requirement`, `decode` and `until` are not matched against the observation
    }
  }
  return out;
}

/** The codec's error of stdout that did not decode (`runExec` leaves `{ $undecodable }` in its place). */
function undecodableStdout(stdout: unknown): string | undefined {
  if (stdout === null || typeof stdout !== 'object' || Array.isArray(stdout)) return undefined;
  const why = (stdout as Record<string, unknown>)['$undecodable'];
  return typeof why === 'string' ? why : undefined;
}

/** Records each mismatch as a failure of the attributed requirement (or the case's). */
export function recordMismatches(run: StepScope, mismatches: Mismatch[], requirement: string | undefined, obs: Observation): void {
  for (const m of mismatches) {
    const f = { message: mismatchText(m), expected: m.expected, actual: m.actual === undefined ? '(absent)' : m.actual, ...(m.detail !== undefined ? { detail: m.detail } : {}) };
    run.fail(requirement ? { ...f, requirement } : f, obs.exchange);
  }
}

/** Reads `capture:` sources from an observation into variables. */
export function capture(obs: Observation, spec: Record<string, string>, vars: Record<string, unknown>, headerName: (n: string) => string): void {
  for (const [name, source] of Object.entries(spec)) {
    if (source.startsWith('$')) vars[name] = getPath(obs.data, source);
    else if (source.startsWith('header:')) vars[name] = obs.headers?.[headerName(source.slice(7)).toLowerCase()];
    else if (source === 'status') vars[name] = obs.status;
    else if (source === 'body') vars[name] = obs.bodyText;
    else if (source === 'exitCode') vars[name] = obs.exitCode;
    else if (source === 'stdout') vars[name] = obs.stdout;
    else if (source === 'stderr') vars[name] = obs.stderr;
  }
}

/**
 * The head of a target's text as a report keeps it, its secrets masked by `redact` before the
 * cut: a secret cut in two would no longer be recognised by the redaction of the report.
 */
export function bodyPreview(text: string | undefined, redact: (text: string) => string, max = BODY_PREVIEW_CHARS): string | undefined {
  return text === undefined ? undefined : redactedPreview(text, max, redact);
}

