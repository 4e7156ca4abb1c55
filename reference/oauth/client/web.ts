import type { ClientBehaviour } from './behaviour.js';
import { CLIENT_EXIT, scopeList, type ClientEnv } from './contract.js';
import { sendForm, text } from './http.js';
import { openLoopback } from './loopback.js';
import { finishWithToken, type ClientIo } from './session.js';

/** The temporary code is valid 10 minutes (spec 000, B, Limits): no point waiting longer. */
const REDIRECT_WAIT_MS = 10 * 60_000;

/**
 * The web application flow as an application runs it (spec 000, B, Endpoints 1-3): open a
 * loopback listener, show the authorization URL, receive the redirect, check `state`, exchange
 * the code with the client secret and the PKCE verifier, then revalidate the user.
 */
export async function runWebFlow(env: ClientEnv, b: ClientBehaviour, io: ClientIo): Promise<number> {
  const callback = new URL(env.callbackUrl);
  // Without redirect_uri the platform sends the browser to the registered callback URL, so
  // the listener must then sit exactly there.
  const port = b.redirectUriIn.authorize ? 0 : Number(callback.port || 80);
  const host = b.redirectUriIn.authorize ? b.loopbackHost : callback.hostname.replace(/^\[|\]$/g, '');
  const loopback = await openLoopback(host, port, callback.pathname);
  const state = b.newState();
  const pkce = b.newPkce();
  const query = new URLSearchParams({ [b.authorizeClientIdParam]: env.clientId });
  if (b.redirectUriIn.authorize) query.set('redirect_uri', loopback.redirectUri);
  if (env.scope) query.set('scope', b.scopeParam(scopeList(env)));
  if (state !== undefined) query.set('state', state);
  if (pkce?.challenge !== undefined) query.set('code_challenge', pkce.challenge);
  if (pkce?.method !== undefined) query.set('code_challenge_method', pkce.method);
  io.say('Open this URL in your browser to authorize the application:');
  io.say(`${env.authUrl}/login/oauth/authorize?${query.toString()}`);

  let returned: URLSearchParams;
  try {
    returned = await loopback.next(REDIRECT_WAIT_MS);
  } catch (e) {
    await loopback.close(500, 'gone');
    io.warn(`Authorization did not complete: ${(e as Error).message}.`);
    return CLIENT_EXIT.aborted;
  }
  if (!b.stateMatches(state, returned.get('state'))) {
    // B, Endpoints 1: a different state means the redirect is not the answer to this request.
    await loopback.close(400, 'The state does not match: this sign-in was not started here. Nothing was done.');
    io.warn('Aborted: the redirect carried a state this client did not send.');
    return CLIENT_EXIT.aborted;
  }
  const code = returned.get('code');
  if (!code) {
    await loopback.close(400, 'Authorization was not granted.');
    io.warn(`Aborted: no code in the redirect${returned.get('error') ? ` (error ${returned.get('error')})` : ''}.`);
    return CLIENT_EXIT.aborted;
  }
  await loopback.close(200, 'Authorized. You can close this window.');

  const params: Record<string, string> = { client_id: env.clientId, code: b.exchangedCode(code) };
  if (b.exchangeSecret) params['client_secret'] = env.clientSecret;
  if (b.redirectUriIn.exchange && b.redirectUriIn.authorize) params['redirect_uri'] = loopback.redirectUri;
  if (pkce?.verifier !== undefined) params['code_verifier'] = pkce.verifier;
  const token = await sendForm(b.httpMethod('exchange'), `${env.authUrl}/login/oauth/access_token`, params);
  const accessToken = text(token.fields['access_token']);
  if (token.status !== 200 || !accessToken) {
    io.warn(`The code exchange failed (HTTP ${token.status}${token.fields['error'] ? `, ${text(token.fields['error'])}` : ''}).`);
    return CLIENT_EXIT.platform;
  }
  return finishWithToken(env, b, accessToken, io);
}
