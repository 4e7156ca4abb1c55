import { PASS, fail, notApplicable, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import type { PageLook, SignInPages } from './sign-in-observation.js';

/**
 * Judges of one browser visit of the authorization endpoint's pages (spec 000, B, Endpoints 1),
 * by requirement. A page that is not the one a judgement needs (no sign-in form where a visitor
 * should sign in, a browser that could not sign in) leaves the requirement unjudged, never passed.
 */

const noteOf = (seen: PageLook) => ({ kind: 'note' as const, summary: `browser: ${seen.url}`, request: seen.url, response: seen });

function where(seen: PageLook): string {
  // a navigation that failed leaves the browser on the page before it: say where it was sent instead
  if (seen.error) return `the browser was sent to ${seen.sentTo}, which did not load (${seen.error})`;
  return `the browser ended on ${seen.finalUrl}${seen.status !== null ? ` (HTTP ${seen.status})` : ''}`;
}

function noSignInPage(seen: PageLook, selector: string): Verdict {
  return unjudged(`a browser that is not signed in was shown no sign-in page for ${seen.url}: nothing matches ${selector}; ${where(seen)}`);
}

/** OAUTH-AUTHZ-LOGIN-HINT: the sign-in page's login field holds the account `login` named. */
export function judgeLoginHint(v: SignInPages): Verdict {
  if (!v.hinted.loginField) return noSignInPage(v.hinted, v.selectors.login_field);
  if (v.hinted.loginValue !== v.login) {
    return fail(`the sign-in page of an authorization URL with login=${v.login} does not suggest that account: its login field (${v.selectors.login_field}) holds ${JSON.stringify(v.hinted.loginValue ?? '')}`, {
      expected: { login_field: v.login },
      actual: { login_field: v.hinted.loginValue },
      exchange: noteOf(v.hinted),
    });
  }
  return PASS;
}

/** OAUTH-AUTHZ-ALLOW-SIGNUP: sign-up is offered by default and not with allow_signup=false. */
export function judgeAllowSignUp(v: SignInPages): Verdict {
  if (!v.plain.loginField) return noSignInPage(v.plain, v.selectors.login_field);
  if (!v.noSignUp.loginField) return noSignInPage(v.noSignUp, v.selectors.login_field);
  if (!v.plain.signupOffer) {
    return fail(`without allow_signup (default true) the sign-in page offers no sign-up: nothing matches ${v.selectors.signup_offer}`, {
      expected: { signup_offer: true },
      actual: { signup_offer: false },
      exchange: noteOf(v.plain),
    });
  }
  if (v.noSignUp.signupOffer) {
    return fail(`with allow_signup=false the sign-in page still offers sign-up (${v.selectors.signup_offer} matches)`, {
      expected: { signup_offer: false },
      actual: { signup_offer: true },
      exchange: noteOf(v.noSignUp),
    });
  }
  return PASS;
}

function pickerShown(seen: PageLook | undefined, v: SignInPages, what: string): Verdict {
  if (!v.signedIn.ok || !seen) return unjudged(`the account picker is judged signed in, and ${v.signedIn.why ?? 'the browser did not sign in'}`);
  if (!seen.picker) {
    return fail(`${what} shows no account picker (nothing matches ${v.selectors.account_picker}); ${where(seen)}`, {
      expected: { account_picker: true },
      actual: { account_picker: false, page: seen.finalUrl },
      exchange: noteOf(seen),
    });
  }
  return PASS;
}

/** OAUTH-AUTHZ-PROMPT-SELECT-ACCOUNT: prompt=select_account shows the picker to a signed-in user. */
export function judgeSelectAccount(v: SignInPages): Verdict {
  return pickerShown(v.prompted, v, 'the authorization URL with prompt=select_account, signed in,');
}

/** OAUTH-AUTHZ-PICKER-NON-HTTP-REDIRECT: an application with a non-HTTP redirect URI gets the picker. */
export function judgeNonHttpPicker(v: SignInPages): Verdict {
  if (!v.nativeClientId) return notApplicable('the target profile names no application with a non-HTTP redirect URI (vars.native_client_id)');
  return pickerShown(v.native, v, `the authorization URL of ${v.nativeClientId} (a non-HTTP redirect URI), signed in and without prompt,`);
}

export const SIGN_IN_JUDGES: Readonly<Record<string, Judge<SignInPages>>> = {
  'OAUTH-AUTHZ-LOGIN-HINT': judgeLoginHint,
  'OAUTH-AUTHZ-ALLOW-SIGNUP': judgeAllowSignUp,
  'OAUTH-AUTHZ-PROMPT-SELECT-ACCOUNT': judgeSelectAccount,
  'OAUTH-AUTHZ-PICKER-NON-HTTP-REDIRECT': judgeNonHttpPicker,
};
