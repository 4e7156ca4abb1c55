import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../src/errors.js';
import { MASK, Redactor } from '../../src/targets/redact.js';

const SECRET = 's3cr3t/Pa ss+wörd&"x';
const r = new Redactor([SECRET, 'ab']);
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
const formEncoded = (s: string): string => new URLSearchParams([['k', s]]).toString().slice(2);

/** Every spelling of `secret` that must never appear in a report. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), formEncoded(secret), b64(secret), b64url(secret), JSON.stringify(secret).slice(1, -1)]
    .filter((f) => f !== '');
}

describe('Redactor.redactString', () => {
  it('masks the raw secret, its URL-encoded, form-encoded, JSON-escaped and base64 forms', () => {
    for (const form of forms(SECRET)) {
      const out = r.redactString(`before ${form} after`);
      expect(out).toBe(`before ${MASK} after`);
    }
    const lowerHex = encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
    expect(r.redactString(`/cb?secret=${lowerHex}`)).toBe(`/cb?secret=${MASK}`);
  });

  it('masks a Basic credential holding the secret, whatever the user name length', () => {
    for (const user of ['', 'a', 'ab', 'abc', 'client-1234', 'Iv1.8a61f9b3a7aba766']) {
      const token = b64(`${user}:${SECRET}`);
      expect(r.redactString(`Authorization: Basic ${token}`)).toBe(`Authorization: Basic ${MASK}`);
      // Also when the blob shows up without the scheme (a logged header value, a JSON field).
      expect(r.redactString(`{"auth":"${token}"}`)).toBe(`{"auth":"${MASK}"}`);
    }
  });

  it('masks a base64url blob that embeds the secret (JWT-like payload)', () => {
    const payload = b64url(JSON.stringify({ sub: 'x', client_secret: SECRET, n: 1 }));
    const out = r.redactString(`Bearer eyJhbGciOiJub25lIn0.${payload}.sig`);
    expect(out).not.toContain(payload);
    expect(out).toContain(MASK);
  });

  it('masks short secrets only where a value equals them exactly', () => {
    expect(r.redactString('ab')).toBe(MASK);
    expect(r.redactString('tab stop')).toBe('tab stop');
    expect(r.redactString('Authorization: Bearer ab')).toBe(`Authorization: Bearer ${MASK}`);
    expect(r.redactString(`Basic ${b64('user:ab')}`)).toBe(`Basic ${MASK}`);
    expect(r.redactString(`Basic ${b64('user:other')}`)).toBe(`Basic ${b64('user:other')}`);
  });

  it('masks the token of a Bearer header when it is a secret, and leaves other tokens', () => {
    const tokenR = new Redactor(['gho_16C7e42F292c6912E7710c838347Ae178B4a']);
    expect(tokenR.redactString('authorization: bearer gho_16C7e42F292c6912E7710c838347Ae178B4a')).toBe(`authorization: bearer ${MASK}`);
    expect(tokenR.redactString('Authorization: Bearer public-token')).toBe('Authorization: Bearer public-token');
  });

  it('masks a longer secret whole when it contains a shorter one', () => {
    const nested = new Redactor(['abcdef', 'abcdef-ghijkl']);
    expect(nested.redactString('x abcdef-ghijkl y')).toBe(`x ${MASK} y`);
  });

  it('is the identity without secrets', () => {
    const none = new Redactor([]);
    expect(none.active).toBe(false);
    const v = { a: 1 };
    expect(none.redactDeep(v)).toBe(v);
    expect(none.redactString('anything')).toBe('anything');
  });

  it('never lets a secret survive in any form, for generated secrets and surroundings', () => {
    const secretArb = fc.string({ minLength: 8, maxLength: 40, unit: 'grapheme' }).filter((s) => !s.includes('*') && s.trim() === s);
    const textArb = fc.string({ maxLength: 20, unit: 'grapheme' });
    fc.assert(
      fc.property(secretArb, textArb, textArb, fc.string({ maxLength: 12 }), (secret, pre, post, user) => {
        const red = new Redactor([secret]);
        const samples = [
          ...forms(secret).map((f) => `${pre}${f}${post}`),
          `Authorization: Basic ${b64(`${user}:${secret}`)}`,
          `data=${b64(`${pre}${secret}${post}`)}`,
          `jwt.${b64url(`${pre}${secret}${post}`)}.sig`,
        ];
        for (const sample of samples) {
          const out = red.redactString(sample);
          for (const f of forms(secret)) expect(out).not.toContain(f);
          expect(out).not.toContain(b64(`${user}:${secret}`));
          expect(out).not.toContain(b64(`${pre}${secret}${post}`).replace(/=+$/, ''));
          expect(out).not.toContain(b64url(`${pre}${secret}${post}`));
        }
      }),
      { seed: 20260101, numRuns: 300 },
    );
  });
});

describe('Redactor.redactDeep', () => {
  it('walks objects, arrays, keys and Maps, leaving bigint and other values alone', () => {
    const input = {
      id: 9007199254740993n,
      n: 3,
      ok: true,
      nothing: null,
      headers: { authorization: `Bearer ${SECRET}`, 'x-other': 'fine' },
      form: { client_secret: encodeURIComponent(SECRET) },
      list: [SECRET, 'plain', [b64(SECRET)]],
      [SECRET]: 'key was secret',
      map: new Map([['k', SECRET]]),
      when: new Date(0),
    };
    const out = r.redactDeep(input) as Record<string, unknown>;
    expect(out.id).toBe(9007199254740993n);
    expect(out.n).toBe(3);
    expect(out.headers).toEqual({ authorization: `Bearer ${MASK}`, 'x-other': 'fine' });
    expect(out.form).toEqual({ client_secret: MASK });
    expect(out.list).toEqual([MASK, 'plain', [MASK]]);
    expect(out[MASK]).toBe('key was secret');
    expect((out.map as Map<string, string>).get('k')).toBe(MASK);
    expect(out.when).toEqual(new Date(0));
    // The input itself is untouched: reports get a copy.
    expect(input.list[0]).toBe(SECRET);
  });

  it('turns UTF-8 bytes showing a secret into a redacted string, and keeps clean bytes as bytes', () => {
    const bytes = new TextEncoder().encode(`{"client_secret":"${SECRET.replace('"', '\\"')}"}`);
    expect(r.redactDeep(bytes)).toBe(`{"client_secret":"${MASK}"}`);
    const clean = new Uint8Array([1, 2, 3]);
    expect(r.redactDeep(clean)).toBe(clean);
  });

  it('overwrites a secret inside binary bytes with stars, keeping the length', () => {
    const secretBytes = Buffer.from(SECRET, 'utf8');
    const bin = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), secretBytes, Buffer.from([0x80])]);
    const out = r.redactDeep(new Uint8Array(bin)) as Uint8Array;
    expect(out).toBeInstanceOf(Uint8Array);
    expect(out.length).toBe(bin.length);
    expect(Buffer.from(out).includes(secretBytes)).toBe(false);
    expect(Buffer.from(out).subarray(3, 3 + secretBytes.length).every((b) => b === 0x2a)).toBe(true);
  });

  it('redacts errors (message, stack, detail) and survives cycles', () => {
    const err = new SpecgateError('SG_TARGET_UNREACHABLE', `cannot reach https://x/?k=${encodeURIComponent(SECRET)}`, { url: SECRET });
    const out = r.redactDeep(err) as Error & { detail: unknown; code: string };
    expect(out.message).not.toContain('s3cr3t');
    expect(out.stack ?? '').not.toContain('s3cr3t');
    expect(out.detail).toEqual({ url: MASK });
    expect(out.code).toBe('SG_TARGET_UNREACHABLE');
    const cyclic: Record<string, unknown> = { s: SECRET };
    cyclic.self = cyclic;
    expect(r.redactDeep(cyclic)).toEqual({ s: MASK, self: '[Circular]' });
  });
});
