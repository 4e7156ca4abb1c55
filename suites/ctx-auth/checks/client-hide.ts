import type { Exchange } from '../../../src/engine/model.js';
import { cutText } from '../../../src/targets/text-cut.js';
import { formOf, issuedCodes, issuedTokens, jsonString, label, ofKind, type ScenarioRun, type SentRequest } from './client-evidence.js';

/**
 * Credentials the played server hands a client (codes, access and refresh tokens, client
 * secrets) and the ones a client sends back (verifiers, Basic credentials) are never shown in
 * clear: the engine redacts only the target profile's secrets, and these are made during the run.
 * Reports say whose they are ("the access token of request #5"), never what they are.
 */
export const HIDDEN = '<hidden>';

/** Parameter and field names that carry a credential wherever they appear. */
const CREDENTIAL_PARAMS = new Set(['code', 'code_verifier', 'client_secret', 'refresh_token', 'access_token', 'id_token', 'assertion', 'password']);
/** Header names that carry a credential, whatever a client calls them. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|key/i;

/** Every credential value seen in a run, longest first (so one inside another is hidden whole). */
export function credentialsOf(run: ScenarioRun): string[] {
  const found = new Set<string>();
  for (const t of issuedTokens(run)) {
    found.add(t.access);
    if (t.refresh) found.add(t.refresh);
  }
  for (const c of issuedCodes(run)) found.add(c.code);
  for (const r of ofKind(run, 'register')) {
    const secret = jsonString(r.answerBody, 'client_secret');
    if (secret) found.add(secret);
  }
  for (const r of run.requests) {
    for (const [k, v] of [...formOf(r), ...r.query]) if (CREDENTIAL_PARAMS.has(k)) found.add(v);
    for (const k of CREDENTIAL_PARAMS) {
      const v = jsonString(r.body, k);
      if (v) found.add(v);
    }
    const auth = /^\s*\S+\s+(\S+)\s*$/.exec(r.headers['authorization'] ?? '')?.[1];
    if (auth) found.add(auth);
  }
  return [...found].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

/** `text` with every credential of the run replaced by {@link HIDDEN}, raw or URL-encoded. */
export function hideIn(text: string, credentials: readonly string[]): string {
  let out = text;
  for (const c of credentials) {
    out = out.split(c).join(HIDDEN);
    const encoded = encodeURIComponent(c);
    if (encoded !== c) out = out.split(encoded).join(HIDDEN);
  }
  return out;
}

function hideParams(params: URLSearchParams, credentials: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = CREDENTIAL_PARAMS.has(k) ? HIDDEN : cutText(hideIn(v, credentials), 200);
  return out;
}

function hideHeaders(headers: Readonly<Record<string, string>>, credentials: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    // the scheme stays visible (Bearer, Basic): it is what several rules are about
    out[k] = CREDENTIAL_HEADER.test(k) ? `${/^\s*(\S+)\s+\S/.exec(v)?.[1] ?? ''} ${HIDDEN}`.trim() : cutText(hideIn(v, credentials), 200);
  }
  return out;
}

/** One request and its answer for a report, credentials hidden. */
export function requestExchange(run: ScenarioRun, r: SentRequest, credentials: readonly string[] = credentialsOf(run)): Exchange {
  const form = formOf(r);
  const location = r.answerHeaders['location'];
  return {
    kind: 'http',
    summary: `${run.scenario}: ${label(r)} -> ${r.status}`,
    request: {
      method: r.method,
      path: r.path,
      ...(r.query.size ? { query: hideParams(r.query, credentials) } : {}),
      headers: hideHeaders(r.headers, credentials),
      ...(form.size ? { form: hideParams(form, credentials) } : r.body ? { body: cutText(hideIn(r.body, credentials), 1000) } : {}),
    },
    response: {
      status: r.status,
      ...(location ? { location: hideIn(location, credentials).replace(/([?&](?:code|access_token)=)[^&#]*/g, `$1${HIDDEN}`) } : {}),
      ...(r.answerBody ? { body: cutText(hideIn(r.answerBody, credentials), 1000) } : {}),
    },
  };
}

/** A query as `name=value&...`, credentials hidden, not re-encoded (readable in a report). */
function queryLine(query: URLSearchParams, credentials: readonly string[]): string {
  return Object.entries(hideParams(query, credentials))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The whole run as one note: a line per request, for the report of every case that judged it. */
export function runTimeline(run: ScenarioRun): Exchange {
  const credentials = credentialsOf(run);
  return {
    kind: 'note',
    summary: `${run.scenario} scenario: ${run.requests.length} requests from the client; ${run.end.summary}`,
    response: run.requests.map((r) => `#${r.n} ${r.method} ${hideIn(r.path, credentials)}${r.query.size ? `?${queryLine(r.query, credentials)}` : ''} -> ${r.status}`),
  };
}
