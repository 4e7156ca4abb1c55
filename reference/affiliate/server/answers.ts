import { formatDateTime } from '../model/dates.js';
import type { AffiliateModel } from '../model/affiliate-model.js';
import type { Refusal } from '../model/outcome.js';

/** One request, routed to its operation (see routes.ts). */
export interface AffiliateCall {
  operationId: string;
  method: string;
  /** The request's path as sent, query left out. */
  path: string;
  query: URLSearchParams;
  /** Request headers, lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
  /** The caller's address as the socket reports it (the whitelist is checked on it). */
  remoteAddress: string;
  /** The request body as text ('' when none). */
  body: string;
}

/**
 * What an operation answers: a status and a JSON body (the envelope included: handlers build
 * whole bodies, so a variant can change any part of one), or an HTML page (the landing).
 */
export interface Answer {
  status: number;
  body?: unknown;
  html?: string;
  headers?: Record<string, string>;
}

/** Answers one operation. */
export type Handler = (call: AffiliateCall, ctx: HandlerContext) => Answer;

/**
 * What a handler sees besides the request. A fresh one per request (`startedAt` is its start),
 * so a variant may hand the reference handler a changed copy (another clock, no key check).
 */
export interface HandlerContext {
  model: AffiliateModel;
  /** `{affiliate_url}`: the server's root. */
  url: string;
  /** The API key the platform issued. */
  apiKey: string;
  /** Addresses calls are accepted from. */
  whitelist: readonly string[];
  /** `performance.now()` when the request arrived (the envelope's `executionTime`). */
  startedAt: number;
  /** The refusal for a caller that may not call (403 address, 401 key), or undefined. */
  authorize(call: AffiliateCall, ctx: HandlerContext): Answer | undefined;
  /** The handler of another operation, as this server serves it. */
  handlerOf(operationId: string): Handler | undefined;
}

/**
 * The envelope's `server` object (E resources): the platform's date `YYYY-MM-DD HH:mm:ss` on
 * the run's clock, the HTTP status, and the seconds the request took.
 */
export function serverInfo(ctx: HandlerContext, status: number): { date: string; httpCode: number; executionTime: number } {
  const seconds = (performance.now() - ctx.startedAt) / 1000;
  return { date: formatDateTime(ctx.model.clock.now()), httpCode: status, executionTime: Math.round(seconds * 1e6) / 1e6 };
}

/** A successful answer (Errors 1): the fields, `message` null, the envelope. */
export function success(ctx: HandlerContext, fields: Record<string, unknown>, status = 200): Answer {
  return { status, body: { ...fields, message: null, server: serverInfo(ctx, status) } };
}

/**
 * A refused call. Error bodies are not shown in the spec (Errors 3); the reference answers
 * `{message, messages, server}`: `messages[0]` is what the sample client shows (Errors 1),
 * `message` the same text.
 */
export function failure(ctx: HandlerContext, status: number, messages: readonly string[]): Answer {
  const all = messages.length ? [...messages] : ['the request was refused'];
  return { status, body: { message: all[0], messages: all, server: serverInfo(ctx, status) } };
}

/** Statuses of the model's refusals (the reference's choice; Errors 3). */
export const REFUSAL_STATUS = { invalid: 400, 'not-found': 404 } as const;

/** A model refusal as the platform answers it. */
export function refusal(ctx: HandlerContext, r: Refusal): Answer {
  return failure(ctx, REFUSAL_STATUS[r.kind], r.messages);
}
