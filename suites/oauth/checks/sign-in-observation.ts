/**
 * What one browser visit of the authorization endpoint's pages saw (spec 000, B, Endpoints 1):
 * the shape the sign-in pages check fills and its judges read. The spec shows none of these
 * pages, so what is looked for on them is the harness's convention (vars.sign_in_selectors).
 */

/** CSS selectors of the pages looked at; the defaults fit the reference platform. */
export interface SignInSelectors {
  login_field: string;
  password_field: string;
  submit: string;
  signup_offer: string;
  account_picker: string;
}

export const DEFAULT_SELECTORS: Readonly<SignInSelectors> = Object.freeze({
  login_field: 'input[name="login"]',
  password_field: 'input[type="password"]',
  submit: 'form:has(input[type="password"]) [type="submit"]',
  signup_offer: 'a[href*="signup"]',
  account_picker: '[data-page="account-picker"]',
});

/** One page the browser was sent to, and what was found on it. */
export interface PageLook {
  /** The authorization URL opened. */
  url: string;
  /** Where the browser ended, and the HTTP status of that document (null: none answered). */
  finalUrl: string;
  /** The last address the browser was sent to while opening it (a redirect's target that did not load stays here). */
  sentTo: string;
  status: number | null;
  /** Why the page could not be opened, when it could not. */
  error?: string;
  loginField: boolean;
  /** The login field's value, when there is one. */
  loginValue: string | null;
  signupOffer: boolean;
  picker: boolean;
}

/** Everything one visit of the pages showed. */
export interface SignInPages {
  selectors: SignInSelectors;
  login: string;
  /** Not signed in: the authorization URL with login=<user_login>. */
  hinted: PageLook;
  /** Not signed in: without allow_signup (its default, true). */
  plain: PageLook;
  /** Not signed in: with allow_signup=false. */
  noSignUp: PageLook;
  /** Whether the browser got signed in through the sign-in form, and why not. */
  signedIn: { ok: boolean; why?: string };
  /** Signed in: with prompt=select_account (absent when sign-in failed). */
  prompted?: PageLook;
  /** Signed in: the authorization URL of vars.native_client_id, without prompt. */
  native?: PageLook;
  nativeClientId?: string;
}
