import { findApp } from '../model/directory.js';
import type { AuthorizeParams } from '../model/web-flow.js';
import { accountPickerPage, consentPage, deviceEntryPage, donePage, errorPage, settingsPage, signInPage, signUpPage } from './html.js';
import { redirect, type Reply } from './http-util.js';
import { token, type RouteContext, type RouteRequest, type Session } from './context.js';

/**
 * The pages a person uses: sign-in, the authorization page of the web flow (spec 000, B,
 * Endpoints 1), the user-code page of the device flow ({auth_url}/login/device, Endpoints 4)
 * and the review page (Endpoints 6). Reached with HTML forms and a session cookie.
 */

const html = (status: number, body: string, headers?: Record<string, string>): Reply => ({ status, contentType: 'text/html; charset=utf-8', body, ...(headers ? { headers } : {}) });

function authorizeParams(q: URLSearchParams): AuthorizeParams {
  const get = (k: string): string | undefined => q.get(k) ?? undefined;
  return {
    client_id: get('client_id'),
    redirect_uri: get('redirect_uri'),
    scope: get('scope'),
    state: get('state'),
    code_challenge: get('code_challenge'),
    code_challenge_method: get('code_challenge_method'),
    login: get('login'),
    allow_signup: get('allow_signup'),
    prompt: get('prompt'),
  };
}

function signedIn(req: RouteRequest): Session | undefined {
  return req.session?.userId !== undefined ? req.session : undefined;
}

function csrfOk(req: RouteRequest, s: Session): boolean {
  return req.params['csrf'] === s.csrf;
}

/** GET {auth_url}/login/oauth/authorize */
export function authorize(req: RouteRequest, { platform }: RouteContext): Reply {
  const p = authorizeParams(req.url.searchParams);
  const checked = platform.web.validate(p);
  // An invalid request is answered on the platform's own page: the browser is never sent to
  // a redirect URI that failed the rules.
  if (!('ok' in checked)) return html(400, errorPage(checked.error, checked.description));
  const s = signedIn(req);
  const here = req.url.pathname + req.url.search;
  if (!s || s.userId === undefined) {
    const offer = platform.web.signInOffer(p);
    return html(200, signInPage(here, offer.login, false, offer.signUp));
  }
  // the picker comes first, once per request: answering it comes back here with the choice made
  if (platform.web.showsAccountPicker(p, checked.pending) && !s.accountChosen.delete(here)) {
    const user = platform.directory.users.find((u) => u.id === s.userId);
    return html(200, accountPickerPage({ login: user?.login ?? String(s.userId), returnTo: here, csrf: s.csrf }));
  }
  const d = platform.web.review(p, s.userId);
  if (d.kind === 'error') return html(400, errorPage(d.error, d.description));
  if (d.kind === 'redirect') return redirect(d.location);
  const id = token();
  s.pending.set(id, d.pending);
  return html(200, consentPage({ action: '/login/oauth/authorize/decision', fields: { pending: id, csrf: s.csrf }, appName: d.pending.app.name, scopes: d.pending.scopes, reauthorize: d.reauthorize }));
}

/** POST of the authorization page's Authorize / Cancel buttons. */
export function authorizeDecision(req: RouteRequest, { platform }: RouteContext): Reply {
  const s = signedIn(req);
  const pending = s?.pending.get(req.params['pending'] ?? '');
  if (!s || s.userId === undefined || !pending || !csrfOk(req, s)) return html(400, errorPage('stale', 'This authorization request is no longer valid.'));
  s.pending.delete(req.params['pending'] ?? '');
  if (req.params['decision'] !== 'approve') return redirect(platform.web.deny(pending));
  return redirect(platform.web.approve(pending, s.userId).location);
}

/** Where a redirect inside the platform may go: one of its own paths, never another site. */
function ownPath(back: string | undefined): string {
  return back !== undefined && back.startsWith('/') && !back.startsWith('//') ? back : '/';
}

/** POST of the account picker's "Continue as": the authorization goes on as the signed-in account. */
export function accountChosen(req: RouteRequest): Reply {
  const s = signedIn(req);
  if (!s || !csrfOk(req, s)) return html(400, errorPage('stale', 'Sign in and open the authorization page again.'));
  const back = ownPath(req.params['return_to']);
  s.accountChosen.add(back);
  return redirect(back);
}

/** POST /session/end: sign out ("Use a different account"), then back to where the user was going. */
export function signOut(req: RouteRequest): Reply {
  const s = signedIn(req);
  if (!s || !csrfOk(req, s)) return html(400, errorPage('stale', 'Open the page again.'));
  s.userId = undefined;
  s.pending.clear();
  s.accountChosen.clear();
  return redirect(ownPath(req.params['return_to']));
}

/** GET /signup: where the sign-in page's sign-up offer leads. */
export function signUp(): Reply {
  return html(200, signUpPage());
}

/** POST /session: sign in, then back to where the user was going. */
export function signIn(req: RouteRequest, { platform, sessions }: RouteContext): Reply {
  const user = platform.signIn(req.params['login'], req.params['password']);
  const back = ownPath(req.params['return_to']);
  if (!user) return html(401, signInPage(back, req.params['login'], true));
  const s = req.session ?? sessions.create();
  s.userId = user.id;
  return redirect(back, { 'set-cookie': sessions.cookie(s) });
}

/** GET {auth_url}/login/device: the page where the user enters user_code. */
export function deviceEntry(req: RouteRequest): Reply {
  const s = signedIn(req);
  if (!s) return html(200, signInPage('/login/device', undefined, false));
  return html(200, deviceEntryPage(s.csrf));
}

const ENTRY_MESSAGES: Record<string, [number, string]> = {
  unknown: [404, 'That code is not valid.'],
  'rate-limited': [429, 'Too many codes were entered for this application. Try again later.'],
  expired: [410, 'That code has expired.'],
  used: [410, 'That code was already used.'],
};

/** POST {auth_url}/login/device: a user code was submitted. */
export function deviceSubmit(req: RouteRequest, { platform }: RouteContext): Reply {
  const s = signedIn(req);
  if (!s || !csrfOk(req, s)) return html(400, errorPage('stale', 'Sign in and open the device page again.'));
  const r = platform.device.enterUserCode(req.params['user_code'] ?? '');
  if (!r.ok) {
    const [status, message] = ENTRY_MESSAGES[r.reason] ?? [400, 'That code cannot be used.'];
    return html(status, deviceEntryPage(s.csrf, { outcome: r.reason, message }));
  }
  const app = findApp(platform.directory, r.grant.clientId);
  return html(200, consentPage({ action: '/login/device/decision', fields: { user_code: r.grant.userCode, csrf: s.csrf }, appName: app?.name ?? r.grant.clientId, scopes: r.grant.scopes, reauthorize: false }));
}

/** POST of the device authorization page's Authorize / Cancel buttons. */
export function deviceDecision(req: RouteRequest, { platform }: RouteContext): Reply {
  const s = signedIn(req);
  if (!s || s.userId === undefined || !csrfOk(req, s)) return html(400, errorPage('stale', 'Sign in and open the device page again.'));
  const code = req.params['user_code'] ?? '';
  const approve = req.params['decision'] === 'approve';
  const r = approve ? platform.device.authorize(code, s.userId) : platform.device.deny(code);
  if (!r.ok) {
    const [status, message] = ENTRY_MESSAGES[r.reason] ?? [400, 'That code cannot be used.'];
    return html(status, deviceEntryPage(s.csrf, { outcome: r.reason, message }));
  }
  return html(200, approve ? donePage('authorized', 'Your device is now connected.') : donePage('denied', 'Authorization cancelled.'));
}

/** GET {auth_url}/settings/connections/applications/<client_id> (B, Endpoints 6). */
export function reviewPage(req: RouteRequest, { platform }: RouteContext, clientId: string): Reply {
  const s = signedIn(req);
  if (!s || s.userId === undefined) return html(200, signInPage(req.url.pathname, undefined, false));
  const app = findApp(platform.directory, clientId);
  if (!app) return html(404, errorPage('unknown', 'No such application.'));
  return html(200, settingsPage({ clientId, appName: app.name, scopes: platform.tokens.authorizedScopes(s.userId, clientId), csrf: s.csrf }));
}

/** POST .../revoke: the user revokes every token of the application. */
export function revoke(req: RouteRequest, { platform }: RouteContext, clientId: string): Reply {
  const s = signedIn(req);
  if (!s || s.userId === undefined || !csrfOk(req, s)) return html(400, errorPage('stale', 'Sign in and open the page again.'));
  const n = platform.tokens.revokeApplication(s.userId, clientId);
  return html(200, donePage('revoked', `Access revoked (${n} token${n === 1 ? '' : 's'}).`));
}
