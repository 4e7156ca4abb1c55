import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { METADATA_PATH, PROTOCOL_REVISION, authorizationBase, objectBody, optionalText, resourceJson, text, textVar, type Json } from './support.js';

/** The target's modes a case may apply to; the case is not applicable in the others. */
export const MODES = ['metadata', 'no-metadata', 'registration', 'no-registration', 'client-credentials'] as const;
export type Mode = (typeof MODES)[number];

/** What discovery found: the variables it sets, and why a mode holds or not. */
export interface Discovery {
  authBase: string;
  metadataUrl: string;
  metadataStatus: number;
  hasMetadata: boolean;
  document: Json | undefined;
  authorizationEndpoint: string | undefined;
  tokenEndpoint: string | undefined;
  registrationEndpoint: string | undefined;
  hasRegistration: boolean;
  /** How registration was found offered or not, for skip reasons. */
  registrationEvidence: string;
  grantTypes: unknown;
}

/** Statuses that say no registration endpoint is there (nothing at the path, or not this method). */
const NOTHING_THERE = new Set([404, 405, 410, 501]);

/**
 * Discovery as a client of revision 2025-03-26 does it (spec 000, C, Endpoints 1-3 and
 * Authentication 2): GET `<origin of server_url>/.well-known/oauth-authorization-server` (the
 * server URL's path discarded) with `CTX-Protocol-Version`. With a 200 answer the endpoints are
 * the document's; otherwise the fallbacks `/authorize`, `/token` and `/register` at the root.
 * Without metadata, whether registration is offered is asked of `/register` with an empty
 * registration (`{}`): a server that offers it refuses the metadata (RFC 7591 section 3.2.2), one
 * that does not has nothing there (404, 405, 410 or 501).
 */
export async function discover(ctx: CheckContext): Promise<Discovery> {
  const authBase = authorizationBase(textVar(ctx, 'server_url'));
  const metadataUrl = `${authBase}${METADATA_PATH}`;
  const version = optionalText(ctx, 'protocol_version') ?? PROTOCOL_REVISION;
  const res = await ctx.request({ method: 'GET', url: metadataUrl, headers: { 'CTX-Protocol-Version': version }, accept: 'json' });
  const hasMetadata = res.status === 200;
  if (hasMetadata) {
    const document = objectBody(res.body);
    const endpoint = (name: string): string | undefined => (text(document?.[name]) === '' ? undefined : text(document?.[name]));
    const registrationEndpoint = endpoint('registration_endpoint');
    return {
      authBase,
      metadataUrl,
      metadataStatus: res.status,
      hasMetadata,
      document,
      authorizationEndpoint: endpoint('authorization_endpoint'),
      tokenEndpoint: endpoint('token_endpoint'),
      registrationEndpoint,
      hasRegistration: registrationEndpoint !== undefined,
      registrationEvidence: registrationEndpoint ? `its metadata names registration_endpoint ${registrationEndpoint}` : 'its metadata names no registration_endpoint',
      grantTypes: document?.['grant_types_supported'],
    };
  }
  const registrationEndpoint = `${authBase}/register`;
  const probe = await ctx.request({ method: 'POST', url: registrationEndpoint, json: {}, accept: 'json' });
  const hasRegistration = !NOTHING_THERE.has(probe.status);
  return {
    authBase,
    metadataUrl,
    metadataStatus: res.status,
    hasMetadata,
    document: undefined,
    authorizationEndpoint: `${authBase}/authorize`,
    tokenEndpoint: `${authBase}/token`,
    registrationEndpoint: hasRegistration ? registrationEndpoint : undefined,
    hasRegistration,
    registrationEvidence: `without metadata, POST ${registrationEndpoint} with empty metadata answered ${probe.status}`,
    grantTypes: undefined,
  };
}

/** Why the target is not in `mode` (the reason of a not-applicable case), or undefined when it is. */
export function notInMode(d: Discovery, mode: Mode): string | undefined {
  const published = `the server publishes authorization server metadata (GET ${d.metadataUrl} answered 200)`;
  const unpublished = `the server publishes no authorization server metadata (GET ${d.metadataUrl} answered ${d.metadataStatus})`;
  switch (mode) {
    case 'metadata':
      return d.hasMetadata ? undefined : `${unpublished}; this case judges the published document`;
    case 'no-metadata':
      return d.hasMetadata ? `${published}; this case judges the fallback endpoints of a server without metadata` : undefined;
    case 'registration':
      return d.hasRegistration ? undefined : `the server offers no dynamic client registration (${d.registrationEvidence}); this case judges registration`;
    case 'no-registration':
      return d.hasRegistration ? `the server offers dynamic client registration (${d.registrationEvidence}); this case judges a server without it` : undefined;
    case 'client-credentials': {
      const advertised = Array.isArray(d.grantTypes) && d.grantTypes.includes('client_credentials');
      if (advertised) return undefined;
      const why = d.hasMetadata ? `its metadata's grant_types_supported is ${JSON.stringify(d.grantTypes ?? '(absent: authorization_code and implicit, RFC 8414 section 2)')}` : unpublished;
      return `the server does not advertise the client_credentials grant (${why}); this case judges servers that do`;
    }
  }
}

/**
 * Where the issuer's own metadata document is (RFC 8414 section 3.1: the well-known path inserted
 * between the host and the issuer's path), and the issuer without a terminating slash; nothing
 * when the issuer is not an http(s) URL. For a server that is its own authorization server it is
 * the document discovery read; for a separate one (C, Authentication 6), that service's.
 */
export function issuerMetadata(issuer: unknown): { issuer_metadata_url?: string; issuer_trimmed?: string } {
  if (typeof issuer !== 'string') return {};
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return {};
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return {};
  const path = url.pathname.replace(/\/+$/, '');
  return { issuer_metadata_url: `${url.origin}${METADATA_PATH}${path}`, issuer_trimmed: issuer.replace(/\/+$/, '') };
}

/**
 * `ctx-auth.discover`: discovery, and the case's applicability. Sets the authorization base
 * (`auth_base`), `metadata_url`, `has_metadata`, `issuer` (with `issuer_metadata_url`, where the
 * issuer's own document is, and `issuer_trimmed`), the three endpoints (the document's,
 * or the root fallbacks), `has_registration`, `grant_types`, `protocol_version` (default
 * 2025-03-26) and `resource_json` (vars.resource_body, default a JSON-RPC `initialize`). With
 * `when`, a target that is not in that mode ends the case as not applicable, the reason saying
 * which mode it is in. It judges nothing itself.
 */
export const discoverCheck = defineCheck<{ when?: Mode }>({
  description: 'discovers the authorization endpoints (metadata at the host root, else the fallbacks); a case for another mode of the target is not applicable',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { when: { enum: [...MODES], description: 'the mode the case applies to; not applicable otherwise' } },
  },
  judges: [],
  sets: ['auth_base', 'metadata_url', 'has_metadata', 'issuer', 'issuer_metadata_url', 'issuer_trimmed', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'has_registration', 'grant_types', 'protocol_version', 'resource_json'],
  async run(ctx, args) {
    const d = await discover(ctx);
    Object.assign(ctx.vars, {
      auth_base: d.authBase,
      metadata_url: d.metadataUrl,
      has_metadata: d.hasMetadata,
      issuer: d.document?.['issuer'],
      ...issuerMetadata(d.document?.['issuer']),
      authorization_endpoint: d.authorizationEndpoint,
      token_endpoint: d.tokenEndpoint,
      registration_endpoint: d.registrationEndpoint,
      has_registration: d.hasRegistration,
      grant_types: d.grantTypes,
      protocol_version: optionalText(ctx, 'protocol_version') ?? PROTOCOL_REVISION,
      resource_json: resourceJson(ctx),
    });
    const other = args.when ? notInMode(d, args.when) : undefined;
    if (other) ctx.notApplicable(other);
  },
});
