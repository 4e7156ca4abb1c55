import { nodeExchange, type NodeAnswer } from '../../../src/targets/node-exchange.js';
import { hookNow, hookSleep } from '../../../src/targets/client-process/clock-hook-client.js';

/**
 * The reference client's HTTP calls, over node:http (src/targets/node-exchange.ts: no redirect
 * followed, only the headers given). Requests are form-encoded and ask for JSON (spec 000, B,
 * Endpoints 2 and 4: `Accept: application/json` gets a JSON object).
 */
export interface Answer {
  status: number;
  /** The JSON object answered, or {} when the body is not one. */
  fields: Record<string, unknown>;
}

const TIMEOUT_MS = 30_000;

function answer(res: NodeAnswer): Answer {
  try {
    const v: unknown = JSON.parse(res.text);
    return { status: res.status, fields: v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {} };
  } catch {
    return { status: res.status, fields: {} };
  }
}

/** Form parameters in the body of a POST, or in the query string of a GET. */
export async function sendForm(method: 'GET' | 'POST', url: string, params: Record<string, string>): Promise<Answer> {
  const form = new URLSearchParams(params).toString();
  const res =
    method === 'POST'
      ? await nodeExchange(url, { method, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form, timeoutMs: TIMEOUT_MS })
      : await nodeExchange(form ? `${url}?${form}` : url, { method, headers: { accept: 'application/json' }, timeoutMs: TIMEOUT_MS });
  return answer(res);
}

export function postForm(url: string, params: Record<string, string>): Promise<Answer> {
  return sendForm('POST', url, params);
}

export async function getJson(url: string, authorization: string, method: 'GET' | 'POST' = 'GET'): Promise<Answer> {
  return answer(await nodeExchange(url, { method, headers: { authorization, accept: 'application/json' }, timeoutMs: TIMEOUT_MS }));
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

export function seconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Waits `s` seconds: through the run's clock hook when the launch gives one (README "Time"), else in real time. */
export function sleep(s: number): Promise<void> {
  return hookSleep(s * 1000);
}

/** Milliseconds since the epoch, on the run's clock hook when the launch gives one. */
export function now(): Promise<number> {
  return hookNow();
}
