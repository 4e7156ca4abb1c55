import { SpecgateError } from '../../../src/errors.js';
import type { CtxClientBehaviour } from './behaviour.js';
import { CTX_CLIENT_ENV, type CtxClientEnv } from './contract.js';
import type { AuthEndpoints } from './discovery.js';
import { describeAnswer, jsonObject, request, stringField } from './http.js';

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** The client as the token endpoint knows it. */
export interface CtxClient {
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  authMethod: ClientAuthMethod;
  /** `registered` here, or `given` in the environment. */
  origin: 'registered' | 'given';
}

/** How a client holding a secret authenticates: Basic unless the server lists only the post form (RFC 6749 §2.3.1). */
function secretMethod(supported: readonly string[] | undefined): ClientAuthMethod {
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  return supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

function noClient(why: string): SpecgateError {
  return new SpecgateError('SG_CONFIG', `${why}, and no ${CTX_CLIENT_ENV.clientId} was given: give the client ID this server knows (C, Authorization 3)`);
}

/**
 * The client ID to use: the one given in the environment (a server without registration, C,
 * Authorization 3), else a new public client registered by RFC 7591 at the registration endpoint
 * (the advertised one, or `/register` at the root without metadata).
 */
export async function obtainClient(env: CtxClientEnv, endpoints: AuthEndpoints, b: CtxClientBehaviour): Promise<CtxClient> {
  if (env.clientId !== undefined) {
    return {
      clientId: env.clientId,
      clientSecret: env.clientSecret,
      redirectUri: env.redirectUri,
      authMethod: env.clientSecret === undefined ? 'none' : secretMethod(endpoints.tokenAuthMethods),
      origin: 'given',
    };
  }
  if (endpoints.registration === undefined) throw noClient('the server metadata advertises no registration_endpoint');
  const what = 'client registration';
  const answer = await request(what, endpoints.registration, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(b.registrationBody(env.redirectUri, env.scope)),
  });
  if (answer.status === 404 && endpoints.source === 'fallback') throw noClient(`the server has no metadata and POST ${endpoints.registration} answered 404`);
  const doc = jsonObject(answer.text);
  const clientId = stringField(doc, 'client_id');
  // RFC 7591 §3.2.1 says 201; a 200 with a client_id is taken too, as clients in the field do
  if ((answer.status !== 201 && answer.status !== 200) || clientId === undefined) {
    throw new SpecgateError('SG_TARGET_PROTOCOL', `${what}: POST ${endpoints.registration} answered ${describeAnswer(answer)}${answer.status === 201 ? ' without a client_id' : ''}`);
  }
  const clientSecret = stringField(doc, 'client_secret');
  const method = stringField(doc, 'token_endpoint_auth_method');
  const authMethod: ClientAuthMethod = method === 'client_secret_post' || method === 'client_secret_basic' ? method : clientSecret === undefined ? 'none' : secretMethod(endpoints.tokenAuthMethods);
  return { clientId, clientSecret, redirectUri: env.redirectUri, authMethod, origin: 'registered' };
}

/** Adds the client's authentication to a token request (RFC 6749 §2.3.1; a public client names itself, OAuth 2.1 §4.1.3). */
export function authenticate(client: CtxClient, params: URLSearchParams, headers: Record<string, string>): void {
  if (client.authMethod === 'client_secret_basic' && client.clientSecret !== undefined) {
    const encode = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
    headers['authorization'] = `Basic ${Buffer.from(`${encode(client.clientId)}:${encode(client.clientSecret)}`).toString('base64')}`;
    return;
  }
  params.set('client_id', client.clientId);
  if (client.authMethod === 'client_secret_post' && client.clientSecret !== undefined) params.set('client_secret', client.clientSecret);
}
