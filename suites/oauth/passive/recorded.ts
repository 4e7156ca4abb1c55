import type { MatchedExchange, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import { DEVICE_GRANT_TYPE } from '../../../reference/oauth/model/limits.js';
import { responseFields } from '../checks/client-log.js';

/**
 * What the oauth suite's passive rules read of a recorded exchange (spec 000 part B): the
 * parameters sent (query and form body), the fields answered in whatever format, the format the
 * request asked for, times, and which device code or authorization an exchange belongs to.
 */

/** The value a recorder writes for a credential it masked (`specgate record`, docs/passive.md). */
export const MASKED = '***';

/** Whether a recorded value is a masked credential: its text is gone, only its presence is known. */
export const masked = (v: string | undefined): boolean => v === MASKED;

/** The operations of api.yaml the rules read, by what they are. */
export const OP = { authorize: 'authorize', token: 'accessToken', user: 'user', deviceCode: 'deviceCode' } as const;

/** Query and form-body parameters of a request, as the platform reads them (the body wins). */
export function sentParams(r: RecordedExchange): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    for (const [k, v] of new URL(r.url).searchParams) out[k] = v;
  } catch {
    // not a URL: no query
  }
  const type = r.requestHeaders['content-type'] ?? '';
  if (r.requestBody !== undefined && (/x-www-form-urlencoded/i.test(type) || (!type && r.requestBody.includes('=')))) for (const [k, v] of new URLSearchParams(r.requestBody)) out[k] = v;
  return out;
}

/** The answer's fields, whatever its format (form, JSON, XML element OAuth), from its text. */
export function answerFields(r: RecordedExchange): Record<string, string> {
  return r.responseText === undefined || r.responseCut ? {} : responseFields(r.responseText);
}

export function answerHeader(r: RecordedExchange, name: string): string | undefined {
  const v = r.responseHeaders[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The format a request asked for (B, Endpoints 2 and 4): JSON or XML by its Accept, form-encoded by default. */
export type Format = 'form' | 'json' | 'xml';
export function askedFormat(r: RecordedExchange): Format {
  const first = (r.requestHeaders['accept'] ?? '').split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (first === 'application/json') return 'json';
  if (first === 'application/xml' || first === 'text/xml') return 'xml';
  return 'form';
}

/** Whether an answer is a success (2xx without `error`): the resource the endpoint answers with. */
export function succeeded(r: RecordedExchange): boolean {
  return r.status >= 200 && r.status < 300 && answerFields(r)['error'] === undefined;
}

/** When the request was sent (ms), or undefined when the recording has no usable time. */
export function sentAt(x: { recorded: RecordedExchange }): number | undefined {
  const t = Date.parse(x.recorded.startedDateTime);
  return Number.isFinite(t) ? t : undefined;
}

export const isDevicePoll = (x: MatchedExchange): boolean => x.operation.id === OP.token && sentParams(x.recorded)['grant_type'] === DEVICE_GRANT_TYPE;
/** A code exchange of the web flow: the token endpoint with a `code` and without the device grant. */
export const isCodeExchange = (x: MatchedExchange): boolean => x.operation.id === OP.token && !isDevicePoll(x) && sentParams(x.recorded)['code'] !== undefined;

/** The format check of one answer: what is wrong with it, or undefined when it is in the format asked. */
export function formatProblem(r: RecordedExchange, format: Format, fields: readonly string[], numbers: readonly string[] = []): string | undefined {
  const type = (answerHeader(r, 'content-type') ?? '').toLowerCase();
  const text = r.responseText ?? '';
  if (format === 'json') {
    if (!type.startsWith('application/json')) return `asked for JSON (Accept: application/json), the answer is ${type || 'without Content-Type'}`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'asked for JSON, the answer does not parse as JSON';
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return 'asked for JSON, the answer is not a JSON object';
    const o = body as Record<string, unknown>;
    const missing = fields.filter((f) => o[f] === undefined);
    if (missing.length) return `the JSON answer lacks ${missing.join(', ')}`;
    const mistyped = fields.filter((f) => (numbers.includes(f) ? typeof o[f] !== 'number' : typeof o[f] !== 'string'));
    if (mistyped.length) return `in the JSON answer ${mistyped.map((f) => `${f} is not a ${numbers.includes(f) ? 'number' : 'string'}`).join(', ')}`;
    return undefined;
  }
  if (format === 'xml') {
    if (!type.includes('xml')) return `asked for XML (Accept: application/xml), the answer is ${type || 'without Content-Type'}`;
    if (!/^\s*(<\?xml[^>]*\?>\s*)?<OAuth>[\s\S]*<\/OAuth>\s*$/.test(text)) return 'the XML answer is not an element OAuth';
    const missing = fields.filter((f) => !new RegExp(`<${f}>[^<]*</${f}>`).test(text));
    return missing.length ? `the element OAuth lacks the child element(s) ${missing.join(', ')}` : undefined;
  }
  if (!type.startsWith('application/x-www-form-urlencoded')) return `without Accept for JSON or XML the answer is form-encoded by default; it is ${type || 'without Content-Type'}`;
  const got = new URLSearchParams(text.trim());
  const missing = fields.filter((f) => !got.has(f));
  return missing.length ? `the form-encoded answer lacks ${missing.join(', ')}` : undefined;
}

/** A requirement's verdict: the findings on what was judged, or what the recording lacks. */
export function verdict(requirement: string, observations: number, findings: PassiveRuleFinding[], lacking: string): PassiveVerdict {
  return { requirement, observations, findings, ...(observations === 0 && !findings.length ? { lacking } : {}) };
}

/** Every recorded exchange of an operation, in recording order. */
export const exchangesOf = (view: PassiveView, op: string): readonly MatchedExchange[] => view.byOperation.get(op) ?? [];

/**
 * One device code and what the recording shows of it: the device authorization answer that
 * issued it (when recorded) and its polls, in recording order. A recorder masks device codes
 * (`***`): a poll whose code is masked belongs to the latest code issued to its client_id.
 */
export interface DeviceChain {
  issue?: MatchedExchange;
  clientId?: string;
  /** `interval` and `expires_in` the issuing answer gave (seconds). */
  interval?: number;
  expiresIn?: number;
  polls: MatchedExchange[];
}

const whole = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined);

export function deviceChains(view: PassiveView): DeviceChain[] {
  const chains: DeviceChain[] = [];
  const byCode = new Map<string, DeviceChain>();
  const latestOf = new Map<string, DeviceChain>();
  for (const x of view.exchanges) {
    if (x.operation.id === OP.deviceCode && succeeded(x.recorded)) {
      const f = answerFields(x.recorded);
      const clientId = sentParams(x.recorded)['client_id'];
      const interval = whole(f['interval']);
      const expiresIn = whole(f['expires_in']);
      const chain: DeviceChain = { issue: x, ...(clientId !== undefined ? { clientId } : {}), ...(interval !== undefined ? { interval } : {}), ...(expiresIn !== undefined ? { expiresIn } : {}), polls: [] };
      chains.push(chain);
      const code = f['device_code'];
      if (code !== undefined && !masked(code)) byCode.set(code, chain);
      latestOf.set(clientId ?? '', chain);
    } else if (isDevicePoll(x)) {
      const p = sentParams(x.recorded);
      const code = p['device_code'] ?? '';
      let chain = masked(code) ? latestOf.get(p['client_id'] ?? '') : byCode.get(code);
      if (!chain) {
        chain = { ...(p['client_id'] !== undefined ? { clientId: p['client_id'] } : {}), polls: [] };
        chains.push(chain);
        if (!masked(code)) byCode.set(code, chain);
      }
      chain.polls.push(x);
    }
  }
  return chains;
}

/** The error code a token-endpoint answer carries, if any. */
export const errorOf = (x: { recorded: RecordedExchange }): string | undefined => answerFields(x.recorded)['error'];
