import { undici } from '../../../src/targets/undici-lazy.js';
import type { UserAgentDriver } from '../../../src/targets/types.js';
import { SpecgateError } from '../../../src/errors.js';
import { pageForms, readPage, resolved, type Page } from './agent-pages.js';

/**
 * The reference platform's scripted user agent: performs what a person does in the browser
 * (sign in, approve or cancel an authorization, enter a user code, revoke on the review page)
 * over HTTP with a session cookie, by submitting the platform's HTML forms.
 *
 * Actions and their parameters (the contract a profile's scripted agent mirrors):
 * - `sign-in` {login?, password?}
 * - `open` {query}            web flow: open the authorization URL, decide nothing
 * - `approve` / `deny` {query} web flow: open it and press Authorize / Cancel when asked
 * - `enter-user-code` {user_code, verification_uri?} device flow: open the verification page
 *   (the `verification_uri` the platform answered; {auth_url}/login/device without it), submit
 *   the code, decide nothing
 * - `approve-device` / `deny-device` {user_code, verification_uri?} device flow: submit it, then
 *   Authorize / Cancel
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
  /** Why a user code was refused (unknown, rate-limited, expired, used), or why it could not be entered. */
  reason: string | null;
}

const blank = (): AgentResult => ({ outcome: 'none', status: null, location: null, code: null, state: null, error: null, prompted: false, reauthorize: false, picker: false, accepted: null, reason: null });

export class ReferenceUserAgent implements UserAgentDriver {
  readonly kind = 'reference-browser';
  /** The session cookie of each origin the agent signed in at: a browser sends a cookie only where it came from. */
  private readonly cookies = new Map<string, string>();
  /** One sign-in per origin shared by concurrent actions, so they all use the same session. */
  private readonly signingIn = new Map<string, Promise<void>>();

  /**
   * @param authUrl the origin the user reaches the platform at ({auth_url}: a gateway's, when
   *   one stands in front of it): the web flow's pages and the review page are opened there, and
   *   the device flow's verification page unless the action names the one the platform gave.
   */
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

  private at(path: string): string {
    return new URL(path, this.authUrl).toString();
  }

  private async signIn(login: string, password: string): Promise<AgentResult> {
    this.cookies.clear();
    this.signingIn.clear();
    const p = await this.fetch('POST', this.at('/session'), { login, password, return_to: '/' });
    return { ...blank(), outcome: this.cookies.has(new URL(this.authUrl).origin) && p.status < 400 ? 'signed-in' : 'rejected', status: p.status };
  }

  private ensureSignedIn(origin: string): Promise<void> {
    let signing = this.signingIn.get(origin);
    if (!signing) {
      signing = this.fetch('POST', `${origin}/session`, { login: this.credentials.login, password: this.credentials.password, return_to: '/' }).then((p) => {
        if (p.status >= 400) this.signingIn.delete(origin);
      });
      this.signingIn.set(origin, signing);
    }
    return signing;
  }

  /** Opens a page and, when the sign-in form shows, signs in through it and comes back. */
  private async open(url: string): Promise<Page> {
    await this.ensureSignedIn(new URL(url).origin);
    let p = await this.fetch('GET', url);
    if (p.name === 'sign-in') {
      const form = pageForms(p)['sign-in'];
      if (!form) return p;
      p = await this.fetch('POST', form.action, { ...form.fields, login: this.credentials.login, password: this.credentials.password });
      if (p.status === 302 && sameOrigin(p.location, p.url)) p = await this.fetch('GET', p.location);
    }
    return p;
  }

  private async web(params: Record<string, unknown>, decision: 'approve' | 'deny' | 'none'): Promise<AgentResult> {
    let p = await this.open(this.at(authorizePath(params)));
    const picker = p.name === 'account-picker';
    if (picker) p = await this.continueAsSignedIn(p);
    const shown = p.name === 'consent' || p.name === 'reauthorize';
    const result = { ...blank(), prompted: shown, reauthorize: p.name === 'reauthorize', picker };
    if (shown && decision !== 'none') {
      const form = pageForms(p)[decision];
      if (form) p = await this.fetch('POST', form.action, form.fields);
    }
    if (p.status >= 300 && p.status < 400 && p.location) {
      const loc = new URL(p.location, p.url);
      return { ...result, outcome: 'redirected', status: p.status, location: loc.toString(), code: loc.searchParams.get('code'), state: loc.searchParams.get('state'), error: loc.searchParams.get('error') };
    }
    const outcome = p.name === 'consent' || p.name === 'reauthorize' ? p.name : 'rejected';
    return { ...result, outcome, status: p.status, error: p.outcome };
  }

  /** Answers the account picker with the account signed in, and follows the platform back. */
  private async continueAsSignedIn(picker: Page): Promise<Page> {
    const form = pageForms(picker)['continue'];
    if (!form) return picker;
    const p = await this.fetch('POST', form.action, form.fields);
    return p.status === 302 && sameOrigin(p.location, p.url) ? this.fetch('GET', p.location) : p;
  }

  /**
   * The device flow as the user does it (spec 000, B, Endpoints 4): open the verification page the
   * platform gave (`verification_uri`, else {auth_url}/login/device), submit the user code through
   * its form, then press Authorize or Cancel on the page that follows.
   */
  private async device(params: Record<string, unknown>, decision: 'approve' | 'deny' | 'none'): Promise<AgentResult> {
    const given = str(params['verification_uri']);
    const page = given ? resolved(given, this.authUrl) : this.at('/login/device');
    if (!page) return { ...blank(), outcome: 'rejected', reason: `verification_uri ${JSON.stringify(given)} is not a URL` };
    const entry = await this.open(page);
    const form = pageForms(entry)['device-entry'];
    // no form to type the code into: the code was never submitted, so it was neither taken nor refused
    if (!form) return { ...blank(), outcome: 'rejected', status: entry.status, reason: `no user-code form on ${entry.url}` };
    let p = await this.fetch('POST', form.action, { ...form.fields, user_code: str(params['user_code']) ?? '' });
    const accepted = p.name === 'consent';
    const result = { ...blank(), accepted, reason: accepted ? null : (p.outcome ?? 'rejected'), prompted: accepted };
    if (!accepted) return { ...result, outcome: 'rejected', status: p.status };
    if (decision === 'none') return { ...result, outcome: 'accepted', status: p.status };
    const button = pageForms(p)[decision];
    if (button) p = await this.fetch('POST', button.action, button.fields);
    const ok = p.outcome === 'authorized' || p.outcome === 'denied';
    return { ...result, outcome: ok ? (p.outcome ?? 'rejected') : 'rejected', status: p.status, reason: ok ? null : p.outcome };
  }

  private async revoke(clientId: string): Promise<AgentResult> {
    const p = await this.open(this.at(`/settings/connections/applications/${encodeURIComponent(clientId)}`));
    const form = pageForms(p)['revoke'];
    if (!form) return { ...blank(), outcome: p.status === 200 ? 'nothing-to-revoke' : 'rejected', status: p.status };
    const r = await this.fetch('POST', form.action, form.fields);
    return { ...blank(), outcome: r.outcome ?? 'rejected', status: r.status };
  }

  private async fetch(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<Page> {
    const origin = new URL(url).origin;
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = this.cookies.get(origin);
    if (cookie) headers['cookie'] = cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await undici().request(url, { method, headers, ...(form ? { body: new URLSearchParams(form).toString() } : {}) });
    const body = await res.body.text();
    const setCookie = res.headers['set-cookie'];
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) this.cookies.set(origin, c.split(';')[0] ?? c);
    const loc = res.headers['location'];
    return readPage(url, res.statusCode, typeof loc === 'string' ? loc : undefined, body);
  }
}

/** Whether `location` is on the same origin as `url` (a redirect the platform makes within itself). */
function sameOrigin(location: string | null, url: string): location is string {
  if (!location) return false;
  try {
    return new URL(location).origin === new URL(url).origin;
  } catch {
    return false;
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
