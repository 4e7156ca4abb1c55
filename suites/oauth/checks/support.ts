import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import type { Exchange } from '../../../src/engine/model.js';
import { SpecgateError } from '../../../src/errors.js';
import { DEVICE_GRANT_TYPE } from '../../../reference/oauth/model/limits.js';
import { cutText } from '../../../src/targets/text-cut.js';
import { undecodedMessage, type BodyKind } from '../../../src/targets/body-parse.js';

/** Shared plumbing of the oauth typed checks: requests, flat response fields, agent calls. */

export interface Sent {
  res: CheckResponse;
  /** Response fields, whatever the format (form, JSON, or XML element OAuth). */
  fields: Record<string, unknown>;
  exchange: Exchange;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
}

/** A target variable the check cannot do without; missing, it is the profile's to fix. */
export function need(ctx: CheckContext, name: string): string {
  const v = ctx.vars[name];
  if (typeof v !== 'string' || v === '') throw new SpecgateError('SG_CONFIG', `case ${ctx.caseId} needs the variable ${name}: set vars.${name} in the target profile`);
  return v;
}

/** Flattens a parsed body: XML arrives as `{OAuth: {...}}`. */
export function flatFields(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const rec = body as Record<string, unknown>;
  const inner = rec['OAuth'];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : rec;
}

/**
 * POSTs a form through the engine (header mapping, recording, redaction, caps). Fields that
 * are null or undefined are left out: a parameter the case does not send is absent, not empty.
 */
export async function postForm(ctx: CheckContext, url: string, form: Record<string, unknown>, accept = 'json'): Promise<Sent> {
  const present = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== null && v !== undefined));
  const res = await ctx.request({ method: 'POST', url, form: present, accept });
  return { res, fields: flatFields(res.body), exchange: res.exchange };
}

export interface DeviceStart {
  deviceCode: string;
  userCode: string;
  /** The page the user is asked to open (`verification_uri` as answered; empty when left out). */
  verificationUri: string;
  interval: number;
  expiresIn: number;
  /** `interval` and `expires_in` as the answer carried them (undefined: left out), for messages. */
  advertised: { interval: unknown; expires_in: unknown };
  sent: Sent;
}

/** The defaults of a device authorization's timing (spec 000, B, Resources; RFC 8628 section 3.2 for interval). */
export const DEVICE_TIMING_DEFAULTS = { expires_in: 900, interval: 5 } as const;

/**
 * What the target advertised of the timing a device-flow judgement follows from, for failure
 * messages: `the target advertised expires_in=600 and interval=5; the spec's default expires_in
 * is 900`. Polls wait the advertised interval and expiry is looked for after the advertised
 * expires_in, so a failure may come from the value as much as from the rule.
 */
export function advertisedTiming(start: Pick<DeviceStart, 'advertised'>): string {
  const advertised: string[] = [];
  const differs: string[] = [];
  const missing: string[] = [];
  for (const field of ['expires_in', 'interval'] as const) {
    const raw = start.advertised[field];
    const standard = DEVICE_TIMING_DEFAULTS[field];
    if (raw === undefined || raw === null || raw === '') {
      missing.push(`${field} (so ${standard} was used)`);
      continue;
    }
    const numeric = typeof raw === 'number' || typeof raw === 'bigint' || (typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw));
    advertised.push(`${field}=${numeric ? String(raw).trim() : JSON.stringify(raw)}`);
    if (Number(raw) !== standard) differs.push(`${field} is ${standard}`);
  }
  const out: string[] = [];
  if (advertised.length) out.push(`the target advertised ${advertised.join(' and ')}`);
  if (differs.length) out.push(`the spec's default ${differs.join(' and ')}`);
  if (missing.length) out.push(`the target left out ${missing.join(' and ')}`);
  return out.join('; ');
}

/** POST {auth_url}/login/device/code for the device-flow application. */
export async function startDevice(ctx: CheckContext, scope = ''): Promise<DeviceStart> {
  const sent = await postForm(ctx, `${need(ctx, 'auth_url')}/login/device/code`, { client_id: need(ctx, 'device_client_id'), scope });
  const f = sent.fields;
  const deviceCode = str(f['device_code']);
  if (!deviceCode) {
    // an answer that did not decode says so first: every field is missing only because of it
    const undecoded = undecodedAnswer(sent.res, 'json');
    // the request asked for JSON: an answer without a device_code breaks the rule of that answer,
    // and the case, which rests on it, is blocked by it
    ctx.blocked(
      'OAUTH-DEVICE-FORMAT-JSON',
      undecoded
        ? `${undecoded}: the device authorization request got no device_code (HTTP ${sent.res.status}), so the device flow cannot go on`
        : `the device authorization request got no device_code (HTTP ${sent.res.status}), so the device flow cannot go on: ${cutText(sent.res.bodyText, 200)}`,
      sent.exchange,
    );
  }
  return {
    deviceCode,
    userCode: str(f['user_code']),
    verificationUri: str(f['verification_uri']),
    interval: seconds(ctx, f, 'interval', DEVICE_TIMING_DEFAULTS.interval, sent),
    expiresIn: seconds(ctx, f, 'expires_in', DEVICE_TIMING_DEFAULTS.expires_in, sent),
    advertised: { interval: f['interval'], expires_in: f['expires_in'] },
    sent,
  };
}

/** Longest wait a device authorization may ask for that the flow is still judged with (a day). */
const MAX_SECONDS = 86_400;

/**
 * A number of seconds from a device authorization answer: the spec's default when the field is
 * absent (its own requirement fails elsewhere), else a whole or fractional count from 0 to a
 * day. Anything else (text, a negative or endless number) leaves no wait the flow can be judged
 * with: the case is blocked by the field's own rule (OAUTH-DEVICE-INTERVAL, -EXPIRES-IN).
 */
function seconds(ctx: CheckContext, f: Record<string, unknown>, field: string, absent: number, sent: Sent): number {
  const raw = f[field];
  if (raw === undefined || raw === null || raw === '') return absent;
  const n = typeof raw === 'number' ? raw : typeof raw === 'bigint' || (typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw)) ? Number(raw) : NaN;
  if (Number.isFinite(n) && n >= 0 && n <= MAX_SECONDS) return n;
  const shown = typeof raw === 'string' ? JSON.stringify(raw) : typeof raw === 'bigint' ? raw.toString() : typeof raw === 'number' ? String(raw) : JSON.stringify(raw) ?? String(raw);
  return ctx.blocked(
    field === 'interval' ? 'OAUTH-DEVICE-INTERVAL' : 'OAUTH-DEVICE-EXPIRES-IN',
    `the device authorization answered ${field} ${shown} (HTTP ${sent.res.status}), not a number of seconds from 0 to ${MAX_SECONDS}, so no poll can be timed by it`,
    sent.exchange,
  );
}

/**
 * Why an answer has no decoded body, in the decoder's words (`the body is not JSON: Unexpected
 * token ...`), or undefined when it decoded or is empty. `asked` is the format the request asked for.
 */
export function undecodedAnswer(res: Pick<CheckResponse, 'headers' | 'body' | 'bodyText'>, asked: BodyKind): string | undefined {
  if (res.body !== undefined) return undefined;
  const ct = res.headers['content-type'];
  return undecodedMessage(typeof ct === 'string' ? ct : undefined, res.bodyText, asked);
}

/** One device poll, with optional faults in its parameters. */
export function pollDevice(ctx: CheckContext, deviceCode: string, over: Record<string, unknown> = {}): Promise<Sent> {
  return postForm(ctx, `${need(ctx, 'auth_url')}/login/oauth/access_token`, {
    client_id: need(ctx, 'device_client_id'),
    device_code: deviceCode,
    grant_type: DEVICE_GRANT_TYPE,
    ...over,
  });
}

/**
 * Runs a user-agent action. A profile's scripted agent runs its steps inside the engine, out of
 * a typed check's reach; when the profile names `agent_bridge_url` (a target that serves
 * specgate's user-agent bridge, `POST <url>/<action>` with the parameters as JSON), the check
 * asks the bridge directly. A missing agent is a configuration problem, not a failure.
 */
export async function act(ctx: CheckContext, action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const bridge = ctx.vars['agent_bridge_url'];
  let result: Record<string, unknown>;
  if ((!ctx.agent || ctx.agent.kind === 'scripted') && typeof bridge === 'string' && bridge) {
    const res = await ctx.request({ method: 'POST', url: `${bridge}/${action}`, json: params, accept: 'json' });
    if (res.status !== 200 || !res.body || typeof res.body !== 'object')
      throw new SpecgateError('SG_TARGET_PROTOCOL', `the user-agent bridge at vars.agent_bridge_url answered HTTP ${res.status} to ${action}, not a JSON object; check the bridge`);
    result = res.body as Record<string, unknown>;
  } else {
    if (!ctx.agent) throw new SpecgateError('SG_CONFIG', `case ${ctx.caseId} needs a user agent to "${action}": add agent: to the target profile (or set vars.agent_bridge_url)`);
    result = await ctx.agent.perform(action, params, ctx.signal);
  }
  ctx.exchange({ kind: 'note', summary: `user agent: ${action}`, request: params, response: result });
  return result;
}

/** Lets time pass on the target clock, in seconds (skips the case when time cannot pass). */
export async function wait(ctx: CheckContext, seconds: number): Promise<void> {
  if (seconds > 0) await ctx.wait(seconds);
}
