/**
 * The spellings a secret can take on its way into a report: in a URL (once, or twice when a
 * target encodes a whole query string again), in a form body, inside a JSON string, as
 * hexadecimal bytes, base64-encoded (Basic credentials, JWT-like blobs). Used by the Redactor.
 */

/** Percent-encodings of `s`: URL and form style, each with upper- and lower-case hex digits. */
function percentForms(s: string): string[] {
  const uri = encodeURIComponent(s);
  const form = new URLSearchParams([['', s]]).toString().slice(1);
  const lower = (t: string): string => t.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  return [uri, lower(uri), form, lower(form)];
}

/**
 * Forms matched literally: raw, percent-encoded once and twice (`%2541`: URL and form style,
 * both hex cases at each level), JSON-escaped, hex (both cases), base64 of the secret alone.
 * A hex dump holds each byte as two digits, so the hex form is found inside a longer dump too.
 */
export function literalForms(secret: string): string[] {
  const once = percentForms(secret);
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  const b64 = Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, '');
  return [...new Set([secret, ...once, ...once.flatMap(percentForms), JSON.stringify(secret).slice(1, -1), hex, hex.toUpperCase(), b64, toBase64Url(b64)])];
}

// Below 8 characters (48 bits) a core could turn up by chance in a large base64 body.
const MIN_CORE = 8;

/**
 * Base64 text that encodes the secret wherever it sits inside longer data. Base64 maps each
 * 3-byte group to 4 characters, so the secret encodes differently at each of the 3 offsets
 * modulo 3; for each offset, the groups made only of secret bytes give a fixed substring (the
 * core) that appears in the encoding of any data containing the secret at that offset —
 * `user:secret` of a Basic header included, whatever the user is.
 */
export function base64Cores(secret: string): string[] {
  // The data around the secret is usually JSON (a JWT payload) or a form body, so the escaped
  // spellings are encoded as well as the raw one.
  const spellings = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...spellings].flatMap(coresOf);
}

function coresOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const firstGroup = k === 0 ? 0 : 1;
    const endGroup = Math.floor((k + bytes.length) / 3);
    const core = enc.slice(4 * firstGroup, 4 * endGroup);
    if (core.length >= MIN_CORE) out.push(core, toBase64Url(core));
  }
  return out;
}

function toBase64Url(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_');
}

/** `s` as a literal inside a regular expression. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
