import type { PresentedCredentials } from '../model/client-auth.js';

function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/**
 * HTTP Basic client credentials (RFC 6749 §2.3.1: id and secret are form-encoded, then joined
 * with ':' and base64-encoded). Undefined when the header is absent or another scheme.
 */
export function basicCredentials(authorization: string | undefined): PresentedCredentials['basic'] {
  const m = /^Basic\s+(\S*)\s*$/i.exec(authorization ?? '');
  if (!m) return undefined;
  const raw = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = raw.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return { clientId: formDecode(raw.slice(0, colon)), clientSecret: formDecode(raw.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1; the scheme name is
 * case-insensitive). Undefined when no Bearer credentials were sent; '' for `Bearer` with no
 * token (which no token matches). A token anywhere else (the query) is deliberately not read:
 * C Endpoints 4 forbids it in the URI.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^Bearer(?:\s+(.*))?$/i.exec((authorization ?? '').trim());
  if (!m) return undefined;
  return (m[1] ?? '').trim();
}

/** Everything a token request offers to identify its client. */
export function presentedCredentials(headers: Record<string, string>, form: Record<string, string>): PresentedCredentials {
  const basic = basicCredentials(headers['authorization']);
  return {
    ...(basic !== undefined ? { basic } : {}),
    ...(form['client_id'] !== undefined ? { formClientId: form['client_id'] } : {}),
    ...(form['client_secret'] !== undefined ? { formClientSecret: form['client_secret'] } : {}),
  };
}
