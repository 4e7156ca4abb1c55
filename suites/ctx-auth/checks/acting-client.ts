import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { cannotJudge, discoveredEndpoint, field, optionalText, text } from './support.js';

/** Where the case's client comes from: registered (RFC 7591) or preconfigured in the profile (spec 000, C, Authentication 3). */
export type ClientSource = 'auto' | 'registration' | 'preconfigured';
/** A public client (PKCE, no secret) or a confidential one (a secret, and the client_credentials grant). */
export type ClientKind = 'public' | 'confidential';

export interface ClientArgs {
  via?: ClientSource;
  kind?: ClientKind;
  /** Prefix of the variables set (`other` sets other_client_id, ...); none sets client_id, ... */
  as?: string;
  redirect_uri?: string;
}

/** The redirect URI a registered client asks for: a loopback URL (spec 000, C, Authentication 8); nothing is served there, as the user-agent step never follows the redirect. */
export const REGISTERED_REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export interface Client {
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string | undefined;
  registered: boolean;
}

/** The names of the variables set for a prefix. */
export function clientVarNames(as: string | undefined): { id: string; secret: string; redirect: string; registered: string } {
  const p = as ? `${as}_` : '';
  return { id: `${p}client_id`, secret: `${p}client_secret`, redirect: `${p}redirect_uri`, registered: `${p}client_registered` };
}

/** The metadata a registration sends for a client of `kind` (RFC 7591 section 2). */
export function registrationMetadata(kind: ClientKind, redirectUri: string): Record<string, unknown> {
  return kind === 'public'
    ? { redirect_uris: [redirectUri], client_name: 'specgate ctx-auth public client', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }
    : { redirect_uris: [redirectUri], client_name: 'specgate ctx-auth confidential client', token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], response_types: ['code'] };
}

/** Registers a client of `kind` at the discovered registration endpoint; a refusal leaves the case nothing to judge with. */
export async function register(ctx: CheckContext, kind: ClientKind, redirectUri: string): Promise<Client> {
  const url = discoveredEndpoint(ctx, 'registration_endpoint');
  const res = await ctx.request({ method: 'POST', url, json: registrationMetadata(kind, redirectUri), accept: 'json' });
  const clientId = text(field(res.body, 'client_id'));
  // valid metadata refused: the rule that valid metadata is registered does not hold, and the case has no client
  if ((res.status !== 201 && res.status !== 200) || clientId === '') ctx.blocked('CTX-SRV-DCR-VALID', `registering a ${kind} client at ${url} answered ${res.status} without a client_id, so the case has no client to go on with`, res.exchange);
  const secret = text(field(res.body, 'client_secret'));
  if (kind === 'confidential' && secret === '') ctx.blocked('CTX-SRV-DCR-VALID', `registering a confidential client at ${url} (token_endpoint_auth_method client_secret_post) gave no client_secret, so the case has no confidential client`);
  return { clientId, clientSecret: kind === 'confidential' ? secret : undefined, redirectUri, registered: true };
}

/**
 * The profile's client (missing, the case is skipped saying what to set, as for a case's
 * `needs:`): for a public one `client_id` (with `client_secret` when it has one) and
 * `redirect_uri`; for a confidential one `confidential_client_id` and `confidential_client_secret`,
 * or `client_id` when it comes with a `client_secret`.
 */
export function preconfigured(ctx: CheckContext, kind: ClientKind, why: string): Client {
  const id = optionalText(ctx, 'client_id');
  const secret = optionalText(ctx, 'client_secret');
  const redirectUri = optionalText(ctx, 'redirect_uri');
  if (kind === 'public') {
    if (!id) ctx.skip(`needs a client, and ${why}: set vars.client_id and vars.redirect_uri (a client registered on the server, with that redirect URI) in the target profile`);
    return { clientId: id, clientSecret: secret, redirectUri, registered: false };
  }
  const cid = optionalText(ctx, 'confidential_client_id');
  const csecret = optionalText(ctx, 'confidential_client_secret');
  if (cid && csecret) return { clientId: cid, clientSecret: csecret, redirectUri: optionalText(ctx, 'confidential_redirect_uri'), registered: false };
  if (id && secret) return { clientId: id, clientSecret: secret, redirectUri, registered: false };
  return ctx.skip(`needs a confidential client, and ${why}: set vars.confidential_client_id and vars.confidential_client_secret (a client with a secret; the client-credentials case also needs it allowed that grant) in the target profile`);
}

/**
 * `ctx-auth.client`: the client a case acts as (spec 000, C, Authentication 3). `via: auto`
 * registers one when the server offers registration and takes the profile's otherwise;
 * `registration` and `preconfigured` insist on one way. Sets `client_id`, `client_secret`
 * (undefined for a public client: the code exchange then sends none), `redirect_uri` and
 * `client_registered`, under the prefix `as` when given. Runs after `ctx-auth.discover`. It
 * judges nothing: a refused registration of a valid client blocks the case by CTX-SRV-DCR-VALID.
 */
export const clientCheck = defineCheck<ClientArgs>({
  description: 'gives the case a client: registered by RFC 7591 when the server offers it, else the profile\'s (client_id, redirect_uri; confidential_client_id/secret)',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: {
      via: { enum: ['auto', 'registration', 'preconfigured'], description: 'auto (default): register when offered, else the profile\'s client' },
      kind: { enum: ['public', 'confidential'], description: 'public (default) or confidential' },
      as: { type: 'string', pattern: '^[a-z][a-z0-9]*$', description: 'prefix of the variables set: other -> other_client_id, ...' },
      redirect_uri: { type: 'string', description: `redirect URI to register (default ${REGISTERED_REDIRECT_URI})` },
    },
  },
  judges: [],
  sets: (args) => Object.values(clientVarNames(args.as)),
  async run(ctx, args) {
    const kind = args.kind ?? 'public';
    const via = args.via ?? 'auto';
    const offered = ctx.vars['has_registration'];
    if (typeof offered !== 'boolean') throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: has_registration is not set; run ctx-auth.discover before ctx-auth.client`);
    let client: Client;
    if (via === 'registration' || (via === 'auto' && offered)) {
      if (!offered) throw cannotJudge('the case registers a client, and the server offers no registration (a case that needs registration runs ctx-auth.discover with when: registration, and is not applicable there)');
      client = await register(ctx, kind, args.redirect_uri ?? REGISTERED_REDIRECT_URI);
    } else {
      client = preconfigured(ctx, kind, offered ? 'the case uses a preconfigured one' : 'the server offers no dynamic client registration');
    }
    const names = clientVarNames(args.as);
    ctx.vars[names.id] = client.clientId;
    ctx.vars[names.secret] = client.clientSecret;
    ctx.vars[names.redirect] = client.redirectUri;
    ctx.vars[names.registered] = client.registered;
  },
});
