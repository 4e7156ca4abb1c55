import { describe, expect, it } from 'vitest';
import { LearnedSecrets, MAX_LEARNED, MIN_IN_TEXT } from '../../src/targets/learned-secrets.js';

const MASK = '***';

describe('LearnedSecrets', () => {
  it('masks a learned value raw, percent-encoded and JSON-escaped', () => {
    const learned = new LearnedSecrets(4);
    const value = 'rt/Kx9+Lm"q=';
    learned.add(value);
    for (const form of [value, encodeURIComponent(value), new URLSearchParams([['k', value]]).toString().slice(2), JSON.stringify(value).slice(1, -1)]) {
      expect(learned.mask(`before ${form} after`, MASK)).toBe(`before ${MASK} after`);
    }
  });

  it('passes over values shorter than its minimum, and knows a value once', () => {
    const learned = new LearnedSecrets(4);
    expect(learned.add('abc')).toBe(false);
    expect(learned.add('abcd-efgh')).toBe(true);
    expect(learned.add('abcd-efgh')).toBe(false);
    expect(learned.size).toBe(1);
    expect(learned.mask('abc abcd-efgh', MASK)).toBe(`abc ${MASK}`);
  });

  it(`knows a value shorter than ${MIN_IN_TEXT} characters, but masks none inside a text`, () => {
    const learned = new LearnedSecrets(4);
    expect(learned.add('none')).toBe(true);
    expect(learned.has('none')).toBe(true);
    expect(learned.mask('case none-of-these, requirement OAUTH-NONE', MASK)).toBe('case none-of-these, requirement OAUTH-NONE');
  });

  it('masks a value containing another whole', () => {
    const learned = new LearnedSecrets(4);
    learned.add('token-1234');
    learned.add('token-1234-refresh');
    expect(learned.mask('x token-1234-refresh y', MASK)).toBe(`x ${MASK} y`);
  });

  it('masks a value containing another whole when the two were learned far apart', () => {
    const learned = new LearnedSecrets(4);
    learned.add('inner-0123');
    for (let i = 0; i < 600; i++) learned.add(`filler-${i}-xxxx`);
    learned.add('outer-inner-0123-outer');
    expect(learned.mask('x outer-inner-0123-outer y inner-0123 z', MASK)).toBe(`x ${MASK} y ${MASK} z`);
  });

  it('masks values learned after it was first used, and across many blocks', () => {
    const learned = new LearnedSecrets(4);
    learned.add('first-token-0000');
    expect(learned.mask('first-token-0000', MASK)).toBe(MASK);
    for (let i = 0; i < 1000; i++) learned.add(`later-token-${String(i).padStart(4, '0')}`);
    expect(learned.mask('a later-token-0999 b later-token-0000 c first-token-0000', MASK)).toBe(`a ${MASK} b ${MASK} c ${MASK}`);
  });

  it('masks the piece of a value a cut left before or after its mark', () => {
    const learned = new LearnedSecrets(4);
    const token = 'Q7vLm2Xr9TkP4sWz8NbC3hJd';
    learned.add(token);
    expect(learned.mask(`{"access_token":"${token.slice(0, 15)}… (300 more characters)`, MASK)).toBe(`{"access_token":"${MASK}… (300 more characters)`);
    expect(learned.mask(`got "xx${token.slice(0, 10)}"…`, MASK)).toBe(`got "xx${MASK}"…`);
    expect(learned.mask(`(120 earlier characters) …${token.slice(9)}","token_type":"bearer"}`, MASK)).toBe(`(120 earlier characters) …${MASK}","token_type":"bearer"}`);
    // a piece too short to say anything of it, and text that is no piece, stay
    expect(learned.mask(`Q7v… and …zz`, MASK)).toBe('Q7v… and …zz');
  });

  it(`keeps at most ${MAX_LEARNED} values and counts those it refused`, () => {
    const learned = new LearnedSecrets(4);
    for (let i = 0; i < MAX_LEARNED + 3; i++) learned.add(`issued-${i}`);
    expect(learned.size).toBe(MAX_LEARNED);
    expect(learned.refused).toBe(3);
    expect(learned.mask(`issued-0 issued-${MAX_LEARNED - 1}`, MASK)).toBe(`${MASK} ${MASK}`);
    expect(learned.has(`issued-${MAX_LEARNED}`)).toBe(false);
  });
});
