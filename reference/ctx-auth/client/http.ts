import { SpecgateError } from '../../../src/errors.js';

/** Every request is given this long to answer; a client under test must not hang its run. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One HTTP request, never following a redirect (the authorization step reads `Location`
 * itself, and no other endpoint of the flow is expected to redirect). `what` names the step
 * in the error a failure throws, so the client's stderr says which request failed and why.
 */
export async function request(what: string, url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const method = init.method ?? 'GET';
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new SpecgateError('SG_TARGET_TIMEOUT', `${what}: ${method} ${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    }
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
    throw new SpecgateError('SG_TARGET_UNREACHABLE', `${what}: ${method} ${url} failed (${e instanceof Error ? e.message : String(e)}${cause})`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new SpecgateError('SG_TARGET_TIMEOUT', `${what}: ${method} ${url} answered ${res.status} but its body did not arrive (${e instanceof Error ? e.message : String(e)})`);
  }
  return { status: res.status, headers: res.headers, text };
}

/** The JSON object of a body, or undefined when it is not one. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function stringField(o: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A short account of a refused answer for error messages: status, OAuth error and description. */
export function describeAnswer(a: HttpAnswer): string {
  const body = jsonObject(a.text);
  const error = stringField(body, 'error');
  const description = stringField(body, 'error_description');
  if (error) return `${a.status} ${error}${description ? ` (${description})` : ''}`;
  const snippet = a.text.trim().slice(0, 120);
  return snippet ? `${a.status}: ${snippet}` : String(a.status);
}
