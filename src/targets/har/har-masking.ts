/**
 * What `specgate record` masks in the HAR file it writes, so the file can be kept as a CI
 * artifact. Names decide, as in the reports: a masked value becomes `***` and its name stays,
 * so "did the request carry credentials" can still be judged from the file.
 *
 * - headers: every header {@link isCredentialHeader} names (Authorization, Cookie, Set-Cookie,
 *   X-Api-Key, any name with key, token, secret, password or session);
 * - query parameters (of the request URL and of a `Location` answer header, fragment too) and
 *   the fields of a form body (`application/x-www-form-urlencoded`): the names above (but
 *   `token_type` and `token_type_hint`, which name a kind of token), and the
 *   OAuth ones {@link isCredentialField} names, `code_verifier`, `client_assertion` and `passwd`;
 *   `code` where it is an authorization code (beside `state`, or in a request naming
 *   `grant_type`, `client_id`, `client_secret`, `code_verifier` or `redirect_uri`);
 * - JSON bodies: the string value of a field named access_token, refresh_token, id_token,
 *   device_code, client_secret, client_assertion, registration_access_token, code_verifier,
 *   password, api_key or secret (any case, `_` or `-` or none), at any depth;
 * - then every value masked so far is masked wherever it appears again (a token an answer
 *   issued, sent later in a body or a URL), through the reports' {@link Redactor}.
 */
import { isCredentialField } from '../issued-credentials.js';
import { MASK, Redactor } from '../redact.js';
import { isCredentialHeader } from './recording.js';

/** Fields that make a query or form a token request, whose `code` is then an authorization code. */
const TOKEN_REQUEST = new Set(['grant_type', 'client_id', 'client_secret', 'code_verifier', 'redirect_uri', 'state']);
/** JSON field names (lower-cased, without `_` or `-`) whose string values are credentials. */
const JSON_FIELDS = new Set(['codeverifier', 'password', 'apikey', 'secret']);

/** Whether a query parameter or form field name holds a credential (whatever its neighbours). */
export function isCredentialParam(name: string): boolean {
  const n = name.toLowerCase();
  // token_type and token_type_hint name a kind of token, not one
  return (isCredentialHeader(n) && !/type|hint/.test(n)) || isCredentialField(n) || /verifier|assertion|passwd/.test(n);
}

/** Whether a JSON field holds a credential. */
export function isCredentialJsonField(key: string): boolean {
  return isCredentialField(key) || JSON_FIELDS.has(key.toLowerCase().replace(/[_-]/g, ''));
}

/** Masks recorded traffic entry by entry; what it masked once it masks everywhere after. */
export class HarMasker {
  private readonly learned = new Redactor([]);

  /** A header's value as written: `***` for a credential header, else the value with learned credentials masked. */
  header(name: string, value: string): string {
    if (isCredentialHeader(name)) {
      this.learned.learn(cookieValues(name, value));
      return MASK;
    }
    if (name.toLowerCase() === 'location') return this.text(this.params(value, 'url'));
    return this.text(value);
  }

  /**
   * A URL with credential parameters of its query (and fragment) masked, raw bytes otherwise
   * unchanged; values masked are learned.
   */
  url(url: string): string {
    return this.text(this.params(url, 'url'));
  }

  /** A form body (`a=1&b=2`) with credential fields masked. */
  form(body: string): string {
    return this.text(this.params(body, 'form'));
  }

  /** A JSON text with the string values of credential fields masked (the text is otherwise kept as it was). */
  json(body: string): string {
    const out = body.replace(/"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (whole, key: string, colon: string, value: string) => {
      if (!isCredentialJsonField(key) || value === '') return whole;
      this.learned.learn([value]);
      return `"${key}"${colon}"${MASK}"`;
    });
    return this.text(out);
  }

  /** Any other text: the credentials learned so far masked. */
  text(s: string): string {
    return this.learned.redactString(s);
  }

  /** Teaches values masked elsewhere (a request's before its answer is written). */
  learn(values: Iterable<string>): void {
    this.learned.learn(values);
  }

  private params(s: string, kind: 'url' | 'form'): string {
    if (kind === 'url') {
      const q = s.indexOf('?');
      const h = s.indexOf('#');
      if (q < 0 && h < 0) return s;
      const cut = q < 0 ? h : h < 0 ? q : Math.min(q, h);
      const rest = s.slice(cut + 1);
      // the query and the fragment are each a list of parameters (an implicit grant answers in the fragment)
      const hash = rest.indexOf('#');
      if (s.charAt(cut) === '?' && hash >= 0) return `${s.slice(0, cut + 1)}${this.pairs(rest.slice(0, hash))}#${this.pairs(rest.slice(hash + 1))}`;
      return `${s.slice(0, cut + 1)}${this.pairs(rest)}`;
    }
    return this.pairs(s);
  }

  /** `a=1&b=2` with the values of credential names replaced; every other byte kept. */
  private pairs(list: string): string {
    const parts = list.split('&');
    const names = parts.map((p) => decodeName(p.split('=')[0] ?? ''));
    const authCode = names.some((n) => TOKEN_REQUEST.has(n.toLowerCase()));
    return parts
      .map((p, i) => {
        const eq = p.indexOf('=');
        const name = names[i] ?? '';
        if (eq < 0 || eq === p.length - 1) return p;
        if (!isCredentialParam(name) && !(authCode && name.toLowerCase() === 'code')) return p;
        this.learned.learn([decodeValue(p.slice(eq + 1))]);
        return `${p.slice(0, eq + 1)}${MASK}`;
      })
      .join('&');
  }
}

function decodeName(s: string): string {
  return decodeValue(s);
}

function decodeValue(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The values of the cookies a Cookie or Set-Cookie header carries (learned so that a copy elsewhere is masked). */
function cookieValues(name: string, value: string): string[] {
  const n = name.toLowerCase();
  if (n === 'cookie') return value.split(';').map((c) => c.slice(c.indexOf('=') + 1).trim()).filter(Boolean);
  if (n === 'set-cookie') {
    const first = value.split(';')[0] ?? '';
    return [first.slice(first.indexOf('=') + 1).trim()].filter(Boolean);
  }
  const bearer = /^\s*(?:Bearer|Basic|Token)\s+(\S+)\s*$/i.exec(value);
  return [bearer ? (bearer[1] as string) : value];
}
