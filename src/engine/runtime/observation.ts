import { getPath } from '../json-path.js';
import { match, type MatchContext, type Mismatch } from '../../checks/matchers.js';
import type { Exchange } from '../model.js';
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
  exchange: () => Exchange;
}

/** How much of a body that does not parse its failure quotes. */
export const UNPARSED_BODY_CHARS = 300;

/** Matching an observation: the matchers' context, and how to mask the target's secrets in a text before it is cut. */
export interface ObservationContext extends MatchContext {
  redact(text: string): string;
}

/** A body that does not parse as its content type claims fails every expectation on the body, saying why. */
function unparsedBody(obs: Observation, m: unknown, ctx: ObservationContext): Mismatch[] {
  if (obs.parseError === undefined) return [];
  return [{ path: '$', message: `the body does not parse as its Content-Type claims (${obs.parseError})`, expected: m, actual: bodyPreview(obs.bodyText, ctx.redact, UNPARSED_BODY_CHARS) }];
}

/** Named parts of an expectation and where each is read from the observation. */
export function expectationMismatches(obs: Observation, expect: Record<string, unknown>, ctx: ObservationContext, headerName: (n: string) => string): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [key, m] of Object.entries(expect)) {
    switch (key) {
      case 'status':
        out.push(...match(obs.status, m, ctx, 'status'));
        break;
      case 'headers':
        for (const [name, hm] of Object.entries(m as Record<string, unknown>)) {
          const real = headerName(name).toLowerCase();
          out.push(...match(obs.headers?.[real], hm, ctx, `header ${real}`));
        }
        break;
      case 'body': {
        const unparsed = unparsedBody(obs, m, ctx);
        out.push(...(unparsed.length ? unparsed : match(obs.body, m, ctx, '$')));
        break;
      }
      case 'schema': {
        const unparsed = unparsedBody(obs, { $schema: m }, ctx);
        out.push(...(unparsed.length ? unparsed : match(obs.body, { $schema: m }, ctx, '$')));
        break;
      }
      case 'exitCode':
        out.push(...match(obs.exitCode, m, ctx, 'exit code'));
        break;
      case 'stdout':
        out.push(...match(obs.stdout, m, ctx, 'stdout'));
        break;
      case 'stderr':
        out.push(...match(obs.stderr, m, ctx, 'stderr'));
        break;
      default:
        break; // `requirement`, `decode` and `until` are not matched against the observation
    }
  }
  return out;
}

/** Records each mismatch as a failure of the attributed requirement (or the case's). */
export function recordMismatches(run: StepScope, mismatches: Mismatch[], requirement: string | undefined, obs: Observation): void {
  for (const m of mismatches) {
    const f = { message: `${m.path}: ${m.message}`, expected: m.expected, actual: m.actual === undefined ? '(absent)' : m.actual };
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

