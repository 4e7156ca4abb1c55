import { randomBytes } from 'node:crypto';
import type { AuthorizationCode } from '../model/codes.js';
import { s256 } from '../model/pkce.js';
import type { Upstream } from '../model/upstream.js';

/** The reference server's client ID at the third-party authorization server it delegates to. */
export const DELEGATING_CLIENT_ID = 'sg-ctx-reference-server';
/** Where the third party sends the user back to the reference server (C Auth 9, step 4). */
export const DELEGATION_CALLBACK_PATH = '/delegation/callback';

/** The third party's endpoints below its base URL (its metadata names the same). */
export const THIRD_PARTY_PATHS = { authorize: '/authorize', token: '/token', introspect: '/introspect' } as const;

/** An authorization the server approved for its client and holds back until the third party answers. */
interface Pending {
  code: AuthorizationCode;
  redirectUri: string;
  state: string | undefined;
  verifier: string;
}

/** What the callback decided: the client's redirect carries a code, or an error (OAuth 2.1 §4.1.2.1). */
export type CallbackOutcome =
  | { kind: 'code'; redirectUri: string; code: string; state: string | undefined }
  | { kind: 'error'; redirectUri: string; error: string; description: string; state: string | undefined }
  | { kind: 'unknown'; description: string };

const random = (): string => randomBytes(24).toString('base64url');

/** A JSON object answer of the third party, or undefined when it gave none. */
async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(form).toString() });
    const parsed: unknown = await res.json().catch(() => undefined);
    const body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    return { status: res.status, body };
  } catch {
    return { status: 0, body: undefined };
  }
}

/**
 * Third-party delegation (spec 000 part C, Authentication 9): the reference server as an OAuth
 * client of a third-party authorization server at `base`, and as the authorization server of its
 * own client. An approved authorization request is held back (its code not yet given) while the
 * user is sent to the third party (step 2); the third party's code is exchanged for its token
 * (steps 4-5) and bound to the server's own code, and so to every token issued from it (step 6);
 * the client then gets its code (step 7). Before a bound token is honored, the third party is
 * asked whether its token is still active (RFC 7662 introspection); an inactive one is renewed
 * with the third party's refresh token when there is one, and otherwise the server's token is
 * refused. A third party that refuses or fails sends the client an error, never a code.
 */
export class Delegation {
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly base: string,
    private readonly callbackUrl: () => string,
  ) {}

  /** Holds `code` back and gives the third-party authorization URL the user is sent to. */
  begin(code: AuthorizationCode, redirectUri: string, state: string | undefined): string {
    const key = random();
    const verifier = random() + random();
    this.pending.set(key, { code, redirectUri, state, verifier });
    const url = new URL(`${this.base}${THIRD_PARTY_PATHS.authorize}`);
    const params = { response_type: 'code', client_id: DELEGATING_CLIENT_ID, redirect_uri: this.callbackUrl(), state: key, code_challenge: s256(verifier), code_challenge_method: 'S256' };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.href;
  }

  /** The third party's answer at the callback: exchange its code, bind the session, release the client's code. */
  async callback(query: URLSearchParams): Promise<CallbackOutcome> {
    const key = query.get('state') ?? '';
    const held = this.pending.get(key);
    if (!held) return { kind: 'unknown', description: 'the callback carries no state of an authorization in progress' };
    this.pending.delete(key);
    const refuse = (error: string, description: string): CallbackOutcome => {
      held.code.used = true;
      return { kind: 'error', redirectUri: held.redirectUri, error, description, state: held.state };
    };
    const thirdPartyError = query.get('error');
    if (thirdPartyError !== null) return refuse(thirdPartyError === 'access_denied' ? 'access_denied' : 'server_error', `the third-party authorization server answered ${thirdPartyError}`);
    const code = query.get('code');
    if (code === null || code === '') return refuse('server_error', 'the third-party authorization server sent no code');
    const res = await postForm(`${this.base}${THIRD_PARTY_PATHS.token}`, { grant_type: 'authorization_code', code, redirect_uri: this.callbackUrl(), client_id: DELEGATING_CLIENT_ID, code_verifier: held.verifier });
    const accessToken = res.body?.['access_token'];
    if (res.status !== 200 || typeof accessToken !== 'string' || accessToken === '') return refuse('server_error', `the third-party token endpoint answered ${res.status} without an access token`);
    const refreshToken = res.body?.['refresh_token'];
    held.code.upstream = { accessToken, ...(typeof refreshToken === 'string' && refreshToken !== '' ? { refreshToken } : {}) };
    return { kind: 'code', redirectUri: held.redirectUri, code: held.code.value, state: held.state };
  }

  /**
   * Whether a token bound to `upstream` may be honored: the third-party token is active, or it was
   * renewed with the third party's refresh token (the session then holds the new pair).
   */
  async honors(upstream: Upstream): Promise<boolean> {
    const seen = await postForm(`${this.base}${THIRD_PARTY_PATHS.introspect}`, { token: upstream.accessToken, client_id: DELEGATING_CLIENT_ID });
    if (seen.status === 200 && seen.body?.['active'] === true) return true;
    if (upstream.refreshToken === undefined) return false;
    const renewed = await postForm(`${this.base}${THIRD_PARTY_PATHS.token}`, { grant_type: 'refresh_token', refresh_token: upstream.refreshToken, client_id: DELEGATING_CLIENT_ID });
    const accessToken = renewed.body?.['access_token'];
    if (renewed.status !== 200 || typeof accessToken !== 'string' || accessToken === '') return false;
    const refreshToken = renewed.body?.['refresh_token'];
    upstream.accessToken = accessToken;
    if (typeof refreshToken === 'string' && refreshToken !== '') upstream.refreshToken = refreshToken;
    return true;
  }
}
