/**
 * The spellings a secret can take on its way into a report: in a URL, in a form body, inside
 * a JSON string, base64-encoded (Basic credentials, JWT-like blobs). Used by the Redactor.
 */

/** Forms matched literally: raw, percent-encoded (both hex cases), form-encoded, JSON-escaped, base64 of the secret alone. */
export function literalForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  const b64 = Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, '');
  return [
    secret,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    form,
    form.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    JSON.stringify(secret).slice(1, -1),
    b64,
    toBase64Url(b64),
  ];
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
