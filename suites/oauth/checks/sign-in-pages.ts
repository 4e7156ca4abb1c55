import type { Page, Request } from 'playwright-core';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { judgedCheck } from '../../../src/engine/checks/judged.js';
import { SpecgateError } from '../../../src/errors.js';
import { CHROMIUM_HINT, CHROMIUM_VAR, NO_BROWSER, findChromium, requireChromium } from '../../../src/targets/browser/find-chromium.js';
import { isTimeout } from '../../../src/targets/browser/action-done.js';
import { withBrowser } from '../../../src/targets/browser/shared-browser.js';
import { SIGN_IN_JUDGES } from './sign-in-judges.js';
import { DEFAULT_SELECTORS, type PageLook, type SignInPages, type SignInSelectors } from './sign-in-observation.js';
import { need } from './support.js';

/**
 * What a person sees at the authorization endpoint before any authorization page (spec 000, B,
 * Endpoints 1: `login`, `allow_signup`, `prompt` and the account picker), seen in headless
 * Chromium: first as a visitor who is not signed in, then signed in through the platform's own
 * sign-in form. The spec shows none of these pages, so what is looked for on them is the
 * harness's convention, configurable per platform (vars.sign_in_selectors).
 */

/**
 * How long one navigation or form step may take (ms) when the target gives no per-request
 * deadline; the target's `http.timeoutMs` bounds them otherwise, as it bounds a request.
 */
const STEP_MS = 15_000;

function selectors(ctx: CheckContext): SignInSelectors {
  const given = ctx.vars['sign_in_selectors'];
  const out: SignInSelectors = { ...DEFAULT_SELECTORS };
  if (given && typeof given === 'object' && !Array.isArray(given)) {
    for (const key of Object.keys(DEFAULT_SELECTORS) as (keyof SignInSelectors)[]) {
      const v = (given as Record<string, unknown>)[key];
      if (typeof v === 'string' && v !== '') out[key] = v;
    }
  }
  return out;
}

function authorizeUrl(ctx: CheckContext, query: Record<string, string>): string {
  const u = new URL(`${need(ctx, 'auth_url')}/login/oauth/authorize`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return u.toString();
}

const firstLine = (e: unknown): string => ((e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '').trim();

async function present(page: Page, selector: string): Promise<boolean> {
  return (await page.locator(selector).count().catch(() => 0)) > 0;
}

/**
 * Opens `url` and reads the page as it stands once loaded (redirects followed). A page that does
 * not load within the step's deadline is a target that does not answer: the case errors with
 * SG_TARGET_TIMEOUT at once, rather than every later page waiting out the same deadline.
 */
async function look(page: Page, url: string, sel: SignInSelectors, stepMs: number): Promise<PageLook> {
  let status: number | null = null;
  let error: string | undefined;
  let sentTo = url;
  const follow = (r: Request): void => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) sentTo = r.url();
  };
  page.on('request', follow);
  try {
    const res = await page.goto(url, { waitUntil: 'load', timeout: stepMs });
    status = res?.status() ?? null;
  } catch (e) {
    if (isTimeout(e))
      throw new SpecgateError('SG_TARGET_TIMEOUT', `the authorization page ${url} did not load within ${stepMs} ms (the target profile's http.timeoutMs); check that the platform answers, or raise http.timeoutMs`, { url, timeoutMs: stepMs });
    // a redirect to a host or scheme no browser here reaches (the callback, a native application's) ends here too
    error = firstLine(e);
  } finally {
    page.off('request', follow);
  }
  const loginField = await present(page, sel.login_field);
  const loginValue = loginField ? await page.locator(sel.login_field).first().inputValue({ timeout: 2000 }).catch(() => null) : null;
  return {
    url,
    finalUrl: page.url(),
    sentTo,
    status,
    ...(error !== undefined ? { error } : {}),
    loginField,
    loginValue,
    signupOffer: await present(page, sel.signup_offer),
    picker: await present(page, sel.account_picker),
  };
}

/** Signs in on the sign-in page the browser is on, through the platform's own form. */
async function signIn(page: Page, sel: SignInSelectors, login: string, password: unknown, stepMs: number): Promise<SignInPages['signedIn']> {
  if (typeof password !== 'string' || password === '') return { ok: false, why: 'vars.user_password is not set, so the browser cannot sign in' };
  if (!(await present(page, sel.login_field))) return { ok: false, why: `the browser was shown no sign-in form (nothing matches ${sel.login_field} at ${page.url()})` };
  try {
    await page.locator(sel.login_field).first().fill(login, { timeout: stepMs });
    await page.locator(sel.password_field).first().fill(password, { timeout: stepMs });
    // the sign-in may come back to the very URL it was shown at, so the new document's load is awaited, not a URL
    const loaded = page.waitForEvent('load', { timeout: stepMs }).catch(() => undefined);
    await page.locator(sel.submit).first().click({ timeout: stepMs });
    await loaded;
  } catch (e) {
    return { ok: false, why: `signing in through the sign-in form failed: ${firstLine(e)}` };
  }
  if (await present(page, sel.login_field)) return { ok: false, why: `after signing in as ${login} the sign-in form was shown again (at ${page.url()})` };
  return { ok: true };
}

function note(ctx: CheckContext, summary: string, seen: PageLook): void {
  ctx.exchange({ kind: 'note', summary: `browser: ${summary}`, request: seen.url, response: seen });
}

/** One visit: three pages as a visitor, sign-in, then the pages a signed-in user gets. */
async function observe(ctx: CheckContext): Promise<SignInPages> {
  // Without a browser there is nothing to look with: the case is skipped saying what to install;
  // a SPECGATE_CHROMIUM that names no browser is the user's mistake, and errors.
  if (!findChromium()) {
    const named = process.env[CHROMIUM_VAR];
    if (named && named !== NO_BROWSER) requireChromium();
    ctx.skip(`no Chromium on this machine to open the platform's pages: ${CHROMIUM_HINT}`);
  }
  const sel = selectors(ctx);
  const login = need(ctx, 'user_login');
  const clientId = need(ctx, 'client_id');
  const native = ctx.vars['native_client_id'];
  const nativeClientId = typeof native === 'string' && native !== '' ? native : undefined;
  const stepMs = ctx.httpTimeoutMs ?? STEP_MS;
  return withBrowser(ctx.signal, async (browser) => {
    const page = browser.page;
    const hinted = await look(page, authorizeUrl(ctx, { client_id: clientId, state: 'sign-in-hint', login }), sel, stepMs);
    note(ctx, `open the authorization URL with login=${login}, not signed in`, hinted);
    const noSignUp = await look(page, authorizeUrl(ctx, { client_id: clientId, state: 'sign-in-no-signup', allow_signup: 'false' }), sel, stepMs);
    note(ctx, 'open the authorization URL with allow_signup=false, not signed in', noSignUp);
    // the default last, so that the sign-in below starts from the plainest sign-in page
    const plain = await look(page, authorizeUrl(ctx, { client_id: clientId, state: 'sign-in-plain' }), sel, stepMs);
    note(ctx, 'open the authorization URL without allow_signup, not signed in', plain);
    const signedIn = await signIn(page, sel, login, ctx.vars['user_password'], stepMs);
    ctx.exchange({ kind: 'note', summary: `browser: sign in as ${login} through the sign-in form`, response: { ...signedIn, at: page.url() } });
    const out: SignInPages = { selectors: sel, login, hinted, plain, noSignUp, signedIn, ...(nativeClientId ? { nativeClientId } : {}) };
    if (!signedIn.ok) return out;
    out.prompted = await look(page, authorizeUrl(ctx, { client_id: clientId, state: 'select-account', prompt: 'select_account' }), sel, stepMs);
    note(ctx, 'open the authorization URL with prompt=select_account, signed in', out.prompted);
    if (nativeClientId) {
      out.native = await look(page, authorizeUrl(ctx, { client_id: nativeClientId, state: 'native-app' }), sel, stepMs);
      note(ctx, `open the authorization URL of ${nativeClientId} (a non-HTTP redirect URI), signed in`, out.native);
    }
    return out;
  }, process.env, { timeoutMs: stepMs });
}

/**
 * `oauth.signInPages`: the pages of the authorization endpoint a person sees before deciding,
 * opened in headless Chromium. Cases share one visit (one browser), each judging its own
 * requirement.
 */
export const signInPages = judgedCheck<Record<string, never>, SignInPages>({
  description: 'opens the authorization URL in headless Chromium, not signed in and then signed in, and judges the sign-in page and the account picker',
  args: { type: 'object', additionalProperties: false, properties: {} },
  share: true,
  visitsPages: true,
  observe: (ctx) => observe(ctx),
  judgeBy: SIGN_IN_JUDGES,
});
