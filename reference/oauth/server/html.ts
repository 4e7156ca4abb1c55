/**
 * The pages a browser sees on the reference platform. Each page carries `data-page` and,
 * where it reports an outcome, `data-outcome`, so a scripted user agent can read it the way
 * a person reads the screen. Wording is the reference's own: the spec shows no page bodies.
 */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
}

export function page(name: string, title: string, body: string, outcome?: string): string {
  const out = outcome ? ` data-outcome="${escapeHtml(outcome)}"` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main data-page="${escapeHtml(name)}"${out}><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/**
 * The sign-in page: `login` is the account filled in (the one `login` suggests, B, Endpoints 1),
 * and `signUp` whether a link to create an account is offered (`allow_signup`).
 */
export function signInPage(returnTo: string, login: string | undefined, failed: boolean, signUp = true): string {
  const offer = signUp ? `<p data-signup="true">New here? <a href="/signup?return_to=${encodeURIComponent(returnTo)}">Create an account</a></p>` : '';
  return page(
    'sign-in',
    'Sign in',
    `${failed ? '<p role="alert">Incorrect login or password.</p>' : ''}<form id="sign-in" method="post" action="/session">${hidden({ return_to: returnTo })}` +
      `<label>Login <input name="login" value="${escapeHtml(login ?? '')}"></label><label>Password <input type="password" name="password"></label>` +
      `<button type="submit">Sign in</button></form>${offer}`,
    failed ? 'rejected' : undefined,
  );
}

/**
 * The account picker (B, Endpoints 1 "prompt"): go on as the account signed in, or sign out and
 * sign in as another. The reference keeps one account per session, so it lists that one.
 */
export function accountPickerPage(opts: { login: string; returnTo: string; csrf: string }): string {
  const fields = { return_to: opts.returnTo, csrf: opts.csrf };
  return page(
    'account-picker',
    'Select an account',
    `<form id="continue" method="post" action="/login/oauth/authorize/account">${hidden(fields)}<button type="submit">Continue as ${escapeHtml(opts.login)}</button></form>` +
      `<form id="switch" method="post" action="/session/end">${hidden(fields)}<button type="submit">Use a different account</button></form>`,
  );
}

/** Where a sign-up offer leads: accounts of the reference platform are seeded, not made. */
export function signUpPage(): string {
  return page('sign-up', 'Create an account', '<p>Accounts of this platform are made by its operator.</p>');
}

export function consentPage(opts: { action: string; fields: Record<string, string>; appName: string; scopes: readonly string[]; reauthorize: boolean }): string {
  const scopes = opts.scopes.length ? opts.scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('') : '<li>(public information only)</li>';
  const note = opts.reauthorize
    ? '<p data-reauthorize="true">This application created many tokens recently. Please check again what you are granting.</p>'
    : '';
  return page(
    opts.reauthorize ? 'reauthorize' : 'consent',
    `Authorize ${opts.appName}`,
    `${note}<ul>${scopes}</ul>` +
      `<form id="approve" method="post" action="${escapeHtml(opts.action)}">${hidden({ ...opts.fields, decision: 'approve' })}<button type="submit">Authorize</button></form>` +
      `<form id="deny" method="post" action="${escapeHtml(opts.action)}">${hidden({ ...opts.fields, decision: 'deny' })}<button type="submit">Cancel</button></form>`,
  );
}

export function errorPage(outcome: string, message: string): string {
  return page('error', 'Something went wrong', `<p>${escapeHtml(message)}</p>`, outcome);
}

export function deviceEntryPage(csrf: string, notice?: { outcome: string; message: string }): string {
  return page(
    'device-entry',
    'Device activation',
    `${notice ? `<p role="alert">${escapeHtml(notice.message)}</p>` : ''}<form id="device-entry" method="post" action="/login/device">${hidden({ csrf })}` +
      `<label>Code <input name="user_code" autocomplete="off"></label><button type="submit">Continue</button></form>`,
    notice?.outcome,
  );
}

export function donePage(outcome: string, message: string): string {
  return page('done', message, '', outcome);
}

export function settingsPage(opts: { clientId: string; appName: string; scopes: readonly string[] | undefined; csrf: string }): string {
  const body =
    opts.scopes === undefined
      ? '<p data-authorized="false">You have not authorized this application.</p>'
      : `<p data-authorized="true">Authorized scopes: <span data-scopes="${escapeHtml(opts.scopes.join(','))}">${escapeHtml(opts.scopes.join(', ') || '(none)')}</span></p>` +
        `<form id="revoke" method="post" action="/settings/connections/applications/${encodeURIComponent(opts.clientId)}/revoke">${hidden({ csrf: opts.csrf })}<button type="submit">Revoke access</button></form>`;
  return page('application-settings', opts.appName, body);
}
