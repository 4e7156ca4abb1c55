import type { EventsModel } from '../model/events-model.js';
import type { Refusal } from '../model/outcome.js';

/** One request, routed to its operation (see routes.ts). */
export interface OperationCall {
  operationId: string;
  method: string;
  /** The request's path as sent (below the server's root, query left out). */
  path: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Request headers, lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
  /** The JSON body, parsed losslessly (integers beyond 2^53 are bigint); undefined when empty. */
  body: unknown;
  /** Set when the body is not JSON. */
  bodyError?: string;
}

/**
 * What an operation answers: a status, a body written as JSON (bigint values as exact JSON
 * numbers), and headers. No body: nothing is written (304, 301).
 */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  model: EventsModel;
  /** Base URLs as this server is reached: the monitoring API (`mon_url`) and the platform API (`api_url`). */
  monUrl: string;
  apiUrl: string;
  /** The handler of another operation, as this server serves it. */
  handlerOf(operationId: string): Handler | undefined;
}

/** Answers one operation. */
export type Handler = (call: OperationCall, ctx: HandlerContext) => Answer;

/** The monitoring API's error body (G, "Error object"): `{errors: [string, ...]}`. */
export function monFailure(status: number, ...messages: string[]): Answer {
  return { status, body: { errors: messages.length ? messages : ['Bad Request'] } };
}

/** Where the platform's error bodies point for help. */
export const PLATFORM_DOCS = 'https://docs.platform.example/rest/activity/events';

/** The platform's error body: `{message, documentation_url}`. */
export function platformFailure(status: number, message: string, extra: Record<string, unknown> = {}): Answer {
  return { status, body: { message, documentation_url: PLATFORM_DOCS, ...extra } };
}

const MON_STATUS = { invalid: 400, 'not-found': 404, forbidden: 403, gone: 410 } as const;
const PLATFORM_STATUS = { invalid: 422, 'not-found': 404, forbidden: 403, gone: 410 } as const;

/** A model refusal as the monitoring API answers it. */
export function monRefusal(r: Refusal): Answer {
  return monFailure(MON_STATUS[r.kind], ...r.messages);
}

/** A model refusal as the platform answers it. */
export function platformRefusal(r: Refusal): Answer {
  const message = r.kind === 'not-found' ? 'Not Found' : r.kind === 'invalid' ? 'Validation Failed' : (r.messages[0] ?? 'Forbidden');
  return platformFailure(PLATFORM_STATUS[r.kind], message, r.kind === 'invalid' ? { errors: r.messages.map((m) => ({ resource: 'IssueEvent', code: 'invalid', message: m })) } : {});
}

/** A query parameter reader for the model's parsers. */
export const queryOf = (call: OperationCall) => (name: string): string | null => call.query.get(name);
