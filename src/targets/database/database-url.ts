/**
 * A profile's `database.url`, checked when the profile loads: a URL a driver would refuse, or
 * read otherwise than it was meant (a password cut short at its `/`), is a configuration error
 * before anything runs, not an error in every case that talks to the database.
 */

/** The schemes specgate has a database adapter for, and what each talks to. */
const SCHEMES: Readonly<Record<string, 'sql' | 'documents'>> = {
  'postgres:': 'sql',
  'postgresql:': 'sql',
  'mongodb:': 'documents',
  'mongodb+srv:': 'documents',
};

/**
 * Characters a user name or password must not hold as written: `/ ? # @ [ ]` end the user part
 * of a URL (the rest of the password is then read as a host or a path), a second `:` is refused
 * by the MongoDB driver, and white space or control characters make the PostgreSQL driver
 * re-encode the whole URL (turning `%2B` into a literal `%2B`). A `%` must start a `%XX` escape.
 * Everything else (`+`, `=`, `!`, letters beyond ASCII) both drivers read as written.
 */
const REFUSED = /[\x00-\x20\x7f/?#@[\]:]/;
const ESCAPE = /^%[0-9A-Fa-f]{2}/;

/** One host of a host list: a name or an IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9\-._~%]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** A character as a `%XX` escape, for the message. */
function escaped(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The characters of `text` that must be percent-encoded, each once, in the order met (`%` when one starts no escape). */
function unencoded(text: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (REFUSED.test(c) || (c === '%' && !ESCAPE.test(text.slice(i)))) found.add(c);
  }
  return [...found];
}

/** `"/" as %2F, "+" as %2B`: the characters, never the value they stand in. */
function encodings(chars: readonly string[]): string {
  return chars.map((c) => (c === '%' ? 'a "%" that starts no %XX escape as %25' : `${JSON.stringify(c)} as ${escaped(c)}`)).join(', ');
}

/** A host list is plausible when every host parses and every port is a port. */
function hostProblem(hosts: string, scheme: string): string | undefined {
  // PostgreSQL defaults an empty host to localhost (or takes ?host=); MongoDB has no default
  if (hosts === '') return SCHEMES[scheme] === 'sql' ? undefined : 'names no host; write it after the @ (or right after // without a user), e.g. 127.0.0.1:27017';
  const list = hosts.split(',');
  if (SCHEMES[scheme] === 'sql' && list.length > 1) return `names ${list.length} hosts; a ${scheme.slice(0, -1)} URL names one`;
  if (scheme === 'mongodb+srv:' && (list.length > 1 || /:\d+$/.test(hosts))) return 'names more than a host name after mongodb+srv://; write one host name and no port (its DNS SRV record gives the servers)';
  for (const host of list) {
    const m = HOST.exec(host);
    if (!m) return `names the host ${JSON.stringify(host)}, which is not a host name or address with an optional :port`;
    const port = m[1];
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `names the port ${port}, which is not a port (1 to 65535)`;
  }
  return undefined;
}

/**
 * Where the user part of the URL ends: at the last `@` before the options (`?`), so that a
 * password holding an unencoded `/` or `@` is still read as a password, and its characters
 * named. Without an `@` there, a later one may end a password holding an unencoded `?` or `#`,
 * unless what comes before the first `/`, `?` or `#` already reads as a host list (then the
 * `@` belongs to the options).
 */
function splitAuthority(rest: string): { userinfo?: string; hosts: string } {
  const hostsAfter = (at: number): string => {
    const after = rest.slice(at + 1);
    const end = after.search(/[/?#]/);
    return end < 0 ? after : after.slice(0, end);
  };
  const options = rest.search(/[?#]/);
  const at = (options < 0 ? rest : rest.slice(0, options)).lastIndexOf('@');
  if (at >= 0) return { userinfo: rest.slice(0, at), hosts: hostsAfter(at) };
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const later = rest.lastIndexOf('@');
  if (later > end && end >= 0 && authority.split(',').some((h) => !HOST.test(h))) return { userinfo: rest.slice(0, later), hosts: hostsAfter(later) };
  return { hosts: authority };
}

/**
 * What is wrong with a database connection URL, in words that say how to fix it; undefined when
 * nothing is. Checks the scheme (one specgate has an adapter for), the user name and password
 * (only characters every driver reads alike, others percent-encoded) and the hosts. The message
 * never repeats the URL or its password: it names the characters to encode.
 */
export function databaseUrlProblem(url: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/(.*)$/s.exec(url);
  if (!m) return 'is not a URL; write it as postgres://user:password@host:port/database or mongodb://user:password@host:port/database';
  const scheme = (m[1] ?? '').toLowerCase();
  if (!SCHEMES[scheme]) return `uses "${scheme}", which specgate has no adapter for; supported: ${Object.keys(SCHEMES).join(', ')}`;
  const { userinfo, hosts } = splitAuthority(m[2] ?? '');
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
    const password = colon < 0 ? undefined : userinfo.slice(colon + 1);
    const howTo = 'percent-encode them (encodeURIComponent in JavaScript, urllib.parse.quote(value, safe="") in Python)';
    // the first ':' separates the user from the password; a ':' in the password must be encoded
    const inUser = unencoded(user);
    if (inUser.length) return `has a user name holding characters a URL must carry percent-encoded: write ${encodings(inUser)}; ${howTo}`;
    const inPassword = password === undefined ? [] : unencoded(password);
    if (inPassword.length) return `has a password holding characters a URL must carry percent-encoded: write ${encodings(inPassword)} (the password itself is not shown); ${howTo}, or read it from the environment already encoded`;
  }
  const host = hostProblem(hosts, scheme);
  return host;
}
