import { request } from 'undici';
import type { UserAgentDriver } from '../../../src/targets/types.js';
import { SpecgateError } from '../../../src/errors.js';

/**
 * The reference platform's scripted user agent: performs what a person does in the browser
 * (sign in, approve or cancel an authorization, enter a user code, revoke on the review page)
 * over HTTP with a session cookie, by submitting the platform's HTML forms.
 *
 * Actions and their parameters (the contract a profile's scripted agent mirrors):
 * - `sign-in` {login?, password?}
 * - `open` {query}            web flow: open the authorization URL, decide nothing
 * - `approve` / `deny` {query} web flow: open it and press Authorize / Cancel when asked
 * - `enter-user-code` {user_code}            device flow: submit the code, decide nothing
 * - `approve-device` / `deny-device` {user_code} device flow: submit it, then Authorize / Cancel
 * - `revoke` {client_id}      review page: revoke the application's access
 * Every result has all keys of {@link AgentResult}; absent values are null.
 */
export interface AgentResult extends Record<string, unknown> {
  /** redirected | consent | reauthorize | rejected | accepted | authorized | denied | revoked | signed-in */
  outcome: string;
  status: number | null;
  /** Where the platform sent the browser outside itself (web flow). */
  location: string | null;
  code: string | null;
  state: string | null;
  error: string | null;
  /** An authorization page was shown before the redirect. */
  prompted: boolean;
  /** The page was the re-authorization prompt of the token creation rate. */
  reauthorize: boolean;
  /** Web flow: the account picker was shown first (and answered with the signed-in account). */
  picker: boolean;
  /** Device flow: the user code was taken. */
  accepted: boolean | null;
  /** Why a user code was refused (unknown, rate-limited, expired, used). */
  reason: string | null;
}

interface Page {
  status: number;
  location: string | null;
  body: string;
  name: string | null;
  outcome: string | null;
}

interface Form {
  action: string;
  fields: Record<string, string>;
}

const blank = (): AgentResult => ({ outcome: 'none', status: null, location: null, code: null, state: null, error: null, prompted: false, reauthorize: false, picker: false, accepted: null, reason: null });

export class ReferenceUserAgent implements UserAgentDriver {
  readonly kind = 'reference-browser';
  private cookie: string | undefined;
  /** One sign-in shared by concurrent actions, so they all use the same session. */
  private signingIn: Promise<void> | undefined;

  constructor(
    private readonly authUrl: string,
    private readonly credentials: { login: string; password: string },
  ) {}

  async perform(action: string, params: Record<string, unknown>): Promise<AgentResult> {
    switch (action) {
      case 'sign-in':
        return this.signIn(str(params['login']) ?? this.credentials.login, str(params['password']) ?? this.credentials.password);
      case 'open':
        return this.web(params, 'none');
      case 'approve':
        return this.web(params, 'approve');
      case 'deny':
        return this.web(params, 'deny');
      case 'enter-user-code':
        return this.device(params, 'none');
      case 'approve-device':
        return this.device(params, 'approve');
      case 'deny-device':
        return this.device(params, 'deny');
      case 'revoke':
        return this.revoke(str(params['client_id']) ?? '');
      default:
        throw new SpecgateError('SG_CONFIG', `the reference user agent has no action "${action}"; it knows sign-in, open, approve, deny, enter-user-code, approve-device, deny-device, revoke`);
    }
  }

  private async signIn(login: string, password: string): Promise<AgentResult> {
    this.cookie = undefined;
    this.signingIn = undefined;
    const p = await this.fetch('POST', '/session', { login, password, return_to: '/' });
    return { ...blank(), outcome: this.cookie && p.status < 400 ? 'signed-in' : 'rejected', status: p.status };
  }

  private ensureSignedIn(): Promise<void> {
    this.signingIn ??= this.fetch('POST', '/session', { login: this.credentials.login, password: this.credentials.password, return_to: '/' }).then((p) => {
      if (p.status >= 400) this.signingIn = undefined;
    });
    return this.signingIn;
  }

  /** Opens a page and, when the sign-in form shows, signs in and comes back. */
  private async open(path: string): Promise<Page> {
    await this.ensureSignedIn();
    let p = await this.fetch('GET', path);
    if (p.name === 'sign-in') {
      const form = forms(p.body)['sign-in'];
      p = await this.fetch('POST', '/session', { ...form?.fields, login: this.credentials.login, password: this.credentials.password });
      if (p.status === 302 && p.location?.startsWith('/')) p = await this.fetch('GET', p.location);
    }
    return p;
  }

  private async web(params: Record<string, unknown>, decision: 'approve' | 'deny' | 'none'): Promise<AgentResult> {
    let p = await this.open(authorizePath(params));
    const picker = p.name === 'account-picker';
    if (picker) p = await this.continueAsSignedIn(p);
    const shown = p.name === 'consent' || p.name === 'reauthorize';
    const result = { ...blank(), prompted: shown, reauthorize: p.name === 'reauthorize', picker };
    if (shown && decision !== 'none') {
      const form = forms(p.body)[decision];
      if (form) p = await this.fetch('POST', form.action, form.fields);
    }
    if (p.status >= 300 && p.status < 400 && p.location) {
      const loc = new URL(p.location, this.authUrl);
      return { ...result, outcome: 'redirected', status: p.status, location: loc.toString(), code: loc.searchParams.get('code'), state: loc.searchParams.get('state'), error: loc.searchParams.get('error') };
    }
    const outcome = p.name === 'consent' || p.name === 'reauthorize' ? p.name : 'rejected';
    return { ...result, outcome, status: p.status, error: p.outcome };
  }

  /** Answers the account picker with the account signed in, and follows the platform back. */
  private async continueAsSignedIn(picker: Page): Promise<Page> {
    const form = forms(picker.body)['continue'];
    if (!form) return picker;
    const p = await this.fetch('POST', form.action, form.fields);
    return p.status === 302 && p.location?.startsWith('/') ? this.fetch('GET', p.location) : p;
  }

  private async device(params: Record<string, unknown>, decision: 'approve' | 'deny' | 'none'): Promise<AgentResult> {
    const entry = await this.open('/login/device');
    const form = forms(entry.body)['device-entry'];
    let p = await this.fetch('POST', '/login/device', { ...form?.fields, user_code: str(params['user_code']) ?? '' });
    const accepted = p.name === 'consent';
    const result = { ...blank(), accepted, reason: accepted ? null : (p.outcome ?? 'rejected'), prompted: accepted };
    if (!accepted) return { ...result, outcome: 'rejected', status: p.status };
    if (decision === 'none') return { ...result, outcome: 'accepted', status: p.status };
    const button = forms(p.body)[decision];
    if (button) p = await this.fetch('POST', button.action, button.fields);
    const ok = p.outcome === 'authorized' || p.outcome === 'denied';
    return { ...result, outcome: ok ? (p.outcome ?? 'rejected') : 'rejected', status: p.status, reason: ok ? null : p.outcome };
  }

  private async revoke(clientId: string): Promise<AgentResult> {
    const p = await this.open(`/settings/connections/applications/${encodeURIComponent(clientId)}`);
    const form = forms(p.body)['revoke'];
    if (!form) return { ...blank(), outcome: p.status === 200 ? 'nothing-to-revoke' : 'rejected', status: p.status };
    const r = await this.fetch('POST', form.action, form.fields);
    return { ...blank(), outcome: r.outcome ?? 'rejected', status: r.status };
  }

  private async fetch(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<Page> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (this.cookie) headers['cookie'] = this.cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await request(new URL(path, this.authUrl), { method, headers, ...(form ? { body: new URLSearchParams(form).toString() } : {}) });
    const body = await res.body.text();
    const setCookie = res.headers['set-cookie'];
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) this.cookie = c.split(';')[0];
    const loc = res.headers['location'];
    return {
      status: res.statusCode,
      location: typeof loc === 'string' ? loc : null,
      body,
      name: /data-page="([^"]*)"/.exec(body)?.[1] ?? null,
      outcome: /data-outcome="([^"]*)"/.exec(body)?.[1] ?? null,
    };
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** `/login/oauth/authorize?...` from `query` (an object; null/undefined values are left out). */
export function authorizePath(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  const query = params['query'];
  if (query && typeof query === 'object') {
    for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined) q.append(k, String(v));
  }
  const s = q.toString();
  return `/login/oauth/authorize${s ? `?${s}` : ''}`;
}

const unescape = (s: string): string => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The page's forms by id, with their hidden fields. */
function forms(html: string): Record<string, Form> {
  const out: Record<string, Form> = {};
  for (const m of html.matchAll(/<form id="([^"]+)" method="post" action="([^"]*)">(.*?)<\/form>/gs)) {
    const fields: Record<string, string> = {};
    for (const i of (m[3] ?? '').matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescape(i[1] ?? '')] = unescape(i[2] ?? '');
    out[m[1] ?? ''] = { action: unescape(m[2] ?? ''), fields };
  }
  return out;
}
