import { SIGNUP_FIELDS } from './contract.js';
import { escapeHtml, page } from './html.js';

const LABELS: Record<(typeof SIGNUP_FIELDS)[number], [string, string]> = {
  email: ['E-mail', 'email'],
  firstName: ['First name', 'text'],
  lastName: ['Last name', 'text'],
  password: ['Password', 'password'],
  phone: ['Phone', 'tel'],
};

/** The sign-up page: the form, the visitor's input kept when shown again, and an error when there is one. */
export function signupPage(opts: { error?: string; values?: Record<string, string>; extras?: string } = {}): string {
  const fields = SIGNUP_FIELDS.map((name) => {
    const [label, type] = LABELS[name];
    const value = name === 'password' ? '' : (opts.values?.[name] ?? '');
    return `<p><label>${label} <input name="${name}" type="${type}" value="${escapeHtml(value)}" required></label></p>`;
  }).join('\n');
  const error = opts.error !== undefined ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>\n` : '';
  return page('Sign up', `<h1>Sign up</h1>\n${error}<form method="post" action="/signup">\n${fields}\n<p><button type="submit">Sign up</button></p>\n</form>${opts.extras ?? ''}`);
}

/** A page that says something went wrong, with the reason (escaped). */
export function problemPage(title: string, reason: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error" role="alert">${escapeHtml(reason)}</p>`);
}
