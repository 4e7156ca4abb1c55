import { describe, expect, it } from 'vitest';
import { MAX_LEARNED } from '../../src/targets/learned-secrets.js';
import { MASK, Redactor } from '../../src/targets/redact.js';

const TOKEN = 'sgt_9XkLm2Qr7TvP4sWz8NbC3hJdYe6';

describe('Redactor.learn', () => {
  it('masks a credential the target issued from then on, in what was kept before too', () => {
    const r = new Redactor([]);
    // a failure kept from the answer that issued the token, before the token was learned
    const failure = { message: 'the answer must carry a string token', actual: { access_token: TOKEN, token_type: 'bearer' } };
    expect(r.active).toBe(false);
    expect(r.redactDeep(failure)).toBe(failure);
    r.learn([TOKEN]);
    expect(r.active).toBe(true);
    expect(r.redactDeep(failure)).toEqual({ message: failure.message, actual: { access_token: MASK, token_type: 'bearer' } });
  });

  it('masks a learned token sent as a Bearer credential, in a URL, and in a Basic credential', () => {
    const r = new Redactor([]);
    const secret = 'cs_registered.0123456789';
    r.learn([TOKEN, secret]);
    expect(r.redactString(`authorization: Bearer ${TOKEN}`)).toBe(`authorization: Bearer ${MASK}`);
    expect(r.redactString(`GET /cb?access_token=${TOKEN}&x=1`)).toBe(`GET /cb?access_token=${MASK}&x=1`);
    const basic = Buffer.from(`client-1:${secret}`).toString('base64');
    expect(r.redactString(`Authorization: Basic ${basic}`)).toBe(`Authorization: Basic ${MASK}`);
    // a Bearer token nobody issued stays
    expect(r.redactString('Authorization: Bearer public-token')).toBe('Authorization: Bearer public-token');
  });

  it('keeps masking the secrets known before the run', () => {
    const r = new Redactor(['env-secret-value']);
    r.learn([TOKEN]);
    expect(r.redactString(`env-secret-value ${TOKEN}`)).toBe(`${MASK} ${MASK}`);
  });

  it('masks a short issued value only where a whole value equals it', () => {
    const r = new Redactor([]);
    r.learn(['none']);
    expect(r.redactDeep({ id: 'token-none-given', refresh_token: 'none' })).toEqual({ id: 'token-none-given', refresh_token: MASK });
    expect(r.redactString('Authorization: Bearer none')).toBe(`Authorization: Bearer ${MASK}`);
  });

  it('passes over values shorter than 4 characters', () => {
    const r = new Redactor([]);
    r.learn(['abc', '']);
    expect(r.active).toBe(false);
    expect(r.redactString('abc')).toBe('abc');
  });

  it(`says once that the run issued more than ${MAX_LEARNED} credentials`, () => {
    const told: number[] = [];
    const r = new Redactor([], { onFull: (max) => told.push(max) });
    r.learn(Array.from({ length: MAX_LEARNED }, (_, i) => `issued-token-${i}`));
    expect(told).toEqual([]);
    r.learn(['one-more-token', 'and-another-token']);
    r.learn(['a-third-token']);
    expect(told).toEqual([MAX_LEARNED]);
    expect(r.redactString('issued-token-0')).toBe(MASK);
  });
});
