import fc from 'fast-check';
import { httpsRedirectUri, loopbackRedirectUri, nonLoopbackHttpRedirectUri } from './redirect-uri.js';

/**
 * Client registration requests (RFC 7591 section 2 and 3.1) for the server-side cases of spec
 * 000, C, Authentication 3 and 8. Each value says what it is and what a conforming server
 * answers: `valid` ones are registered (201, section 3.2.1), the others refused (400,
 * section 3.2.2).
 */
export interface RegistrationRequest {
  body: Record<string, unknown>;
  /** What is wrong with it (or "valid"), for reports. */
  kind: string;
  valid: boolean;
  /** The redirect URIs a registered client must echo (valid requests only). */
  redirect_uris?: string[];
}

const clientName = fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ._-]{0,23}$/), { nil: undefined });

/** Optional fields every conforming server accepts for a public client using the code flow. */
const publicExtras = fc.record(
  {
    client_name: clientName,
    token_endpoint_auth_method: fc.constant('none'),
    grant_types: fc.constantFrom(['authorization_code'], ['authorization_code', 'refresh_token']),
    response_types: fc.constant(['code']),
  },
  { requiredKeys: [] },
);

function withoutUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** Valid metadata: one to three localhost or HTTPS redirect URIs, and optional public-client fields. */
export function validRegistration(): fc.Arbitrary<RegistrationRequest> {
  const uri = fc.oneof(loopbackRedirectUri(), httpsRedirectUri()).map((r) => r.uri);
  return fc.tuple(fc.uniqueArray(uri, { minLength: 1, maxLength: 3 }), publicExtras).map(([uris, extras]) => ({
    body: { ...withoutUndefined(extras), redirect_uris: uris },
    kind: 'valid',
    valid: true,
    redirect_uris: uris,
  }));
}

/** Strings that are not absolute URIs. */
const notAUri = fc.constantFrom('not a uri', '/callback', 'callback', '', 'http//missing-colon.example/cb', '://no-scheme/cb');

/**
 * Invalid metadata as RFC 7591 section 3.2.2 refuses it: redirect_uris missing, not an array
 * (a string, an object, a number), or holding something that is not an absolute URI.
 */
export function invalidRegistration(): fc.Arbitrary<RegistrationRequest> {
  const good = loopbackRedirectUri().map((r) => r.uri);
  return fc.oneof(
    publicExtras.map((extras) => ({ body: withoutUndefined(extras), kind: 'redirect_uris missing', valid: false })),
    fc.tuple(good, publicExtras).map(([u, extras]) => ({ body: { ...withoutUndefined(extras), redirect_uris: u }, kind: 'redirect_uris a string, not an array', valid: false })),
    fc.tuple(good, publicExtras).map(([u, extras]) => ({ body: { ...withoutUndefined(extras), redirect_uris: { first: u } }, kind: 'redirect_uris an object, not an array', valid: false })),
    publicExtras.map((extras) => ({ body: { ...withoutUndefined(extras), redirect_uris: 42 }, kind: 'redirect_uris a number', valid: false })),
    fc.tuple(fc.array(good, { maxLength: 2 }), notAUri, publicExtras).map(([before, bad, extras]) => ({
      body: { ...withoutUndefined(extras), redirect_uris: [...before, bad] },
      kind: `redirect_uris holding ${JSON.stringify(bad)}, not an absolute URI`,
      valid: false,
    })),
  );
}

/**
 * Metadata that is well formed but names an http redirect URI on a host that is not loopback,
 * which spec 000, C, Authentication 8 forbids (beside any allowed ones).
 */
export function nonLoopbackHttpRegistration(): fc.Arbitrary<RegistrationRequest> {
  const good = fc.oneof(loopbackRedirectUri(), httpsRedirectUri()).map((r) => r.uri);
  return fc.tuple(fc.array(good, { maxLength: 2 }), nonLoopbackHttpRedirectUri(), publicExtras).map(([others, bad, extras]) => ({
    body: { ...withoutUndefined(extras), redirect_uris: [...others, bad.uri] },
    kind: `redirect URI ${bad.uri} (${bad.kind})`,
    valid: false,
  }));
}
