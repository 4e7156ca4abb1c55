import fc from 'fast-check';

/**
 * Redirect URIs around the rule of spec 000, C, Authentication 8: "redirect URIs must be
 * localhost URLs or HTTPS URLs". Only clear cases are generated: http on a loopback host
 * (localhost, 127.0.0.1, [::1]) or https anywhere is allowed; http on any other host is not,
 * including hosts that merely begin or end like a loopback name. None carries a fragment
 * (RFC 6749 section 3.1.2).
 */
export interface RedirectUri {
  uri: string;
  allowed: boolean;
  /** What kind of URI it is, for reports. */
  kind: string;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Hosts that are not loopback, some of them made to look like one. */
const PUBLIC_HOSTS = ['client.example.com', 'app.example.net', 'localhost.example.com', '127.0.0.1.example.org', 'example.com', '10.0.0.7', '192.168.1.20'] as const;

const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
const port = fc.option(fc.integer({ min: 1024, max: 65535 }), { nil: undefined });
const query = fc.option(segment.map((s) => `?from=${s}`), { nil: undefined, freq: 4 });

function build(scheme: string, host: string, p: number | undefined, pathPart: string, q: string | undefined): string {
  return `${scheme}://${host}${p === undefined ? '' : `:${p}`}${pathPart}${q ?? ''}`;
}

/** http on a loopback host, any port and path: a localhost URL. */
export function loopbackRedirectUri(): fc.Arbitrary<RedirectUri> {
  return fc.tuple(fc.constantFrom(...LOOPBACK_HOSTS), port, path, query).map(([host, p, pathPart, q]) => ({ uri: build('http', host, p, pathPart, q), allowed: true, kind: `http on loopback host ${host}` }));
}

/** https on a public host: an HTTPS URL. */
export function httpsRedirectUri(): fc.Arbitrary<RedirectUri> {
  return fc.tuple(fc.constantFrom('client.example.com', 'app.example.net', 'example.com'), port, path, query).map(([host, p, pathPart, q]) => ({ uri: build('https', host, p, pathPart, q), allowed: true, kind: `https on ${host}` }));
}

/** http on a host that is not loopback: neither a localhost nor an HTTPS URL. */
export function nonLoopbackHttpRedirectUri(): fc.Arbitrary<RedirectUri> {
  return fc.tuple(fc.constantFrom(...PUBLIC_HOSTS), port, path, query).map(([host, p, pathPart, q]) => ({ uri: build('http', host, p, pathPart, q), allowed: false, kind: `http on non-loopback host ${host}` }));
}

/** Any of the three kinds. */
export function redirectUri(): fc.Arbitrary<RedirectUri> {
  return fc.oneof(loopbackRedirectUri(), httpsRedirectUri(), nonLoopbackHttpRedirectUri());
}
