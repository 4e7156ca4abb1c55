import { SpecgateError } from '../../../src/errors.js';

/**
 * The reference client's HTTP calls (Node's fetch). Requests are form-encoded and ask for
 * JSON (spec 000, B, Endpoints 2 and 4: `Accept: application/json` gets a JSON object).
 */
export interface Answer {
  status: number;
  /** The JSON object answered, or {} when the body is not one. */
  fields: Record<string, unknown>;
}

const TIMEOUT_MS = 30_000;

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    const v: unknown = JSON.parse(text);
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
      ? await fetch(url, { method, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form, signal: AbortSignal.timeout(TIMEOUT_MS) })
      : await fetch(form ? `${url}?${form}` : url, { method, headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  return answer(res);
}

export function postForm(url: string, params: Record<string, string>): Promise<Answer> {
  return sendForm('POST', url, params);
}

export async function getJson(url: string, authorization: string, method: 'GET' | 'POST' = 'GET'): Promise<Answer> {
  const res = await fetch(url, { method, headers: { authorization, accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  return answer(res);
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

export function seconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * The clock hook of the launch (SPECGATE_CLOCK_URL, an optional extension of the contract: see
 * README "Time"), read once: with it the client waits and tells time on the platform's clock;
 * without it, in real time.
 */
const clockUrl = process.env['SPECGATE_CLOCK_URL'];

async function hookTime(res: Response, what: string): Promise<number> {
  const body: unknown = await res.json().catch(() => undefined);
  const now = body && typeof body === 'object' ? (body as Record<string, unknown>)['now'] : undefined;
  if (!res.ok || typeof now !== 'number') throw new SpecgateError('SG_TARGET_PROTOCOL', `the clock hook answered ${what} with HTTP ${res.status} and no time`);
  return now;
}

/** Waits `s` seconds: through the clock hook when the launch gives one, else in real time. */
export async function sleep(s: number): Promise<void> {
  const ms = Math.round(Math.max(0, s) * 1000);
  if (clockUrl) {
    await hookTime(await fetch(`${clockUrl}/sleep?ms=${ms}`, { method: 'POST', signal: AbortSignal.timeout(TIMEOUT_MS) }), 'a sleep');
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Milliseconds since the epoch: the clock hook's time when the launch gives one, else the real time. */
export async function now(): Promise<number> {
  if (!clockUrl) return Date.now();
  return hookTime(await fetch(`${clockUrl}/now`, { signal: AbortSignal.timeout(TIMEOUT_MS) }), 'the time');
}
