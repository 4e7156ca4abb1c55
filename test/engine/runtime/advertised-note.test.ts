import { describe, expect, it } from 'vitest';
import { advertisedNote, explained, relianceNote } from '../../../src/engine/runtime/advertised-note.js';
import type { ValueOrigin } from '../../../src/engine/runtime/advertised-values.js';

const origin = (name: string, value: unknown, step: number, more: Partial<ValueOrigin> = {}): ValueOrigin => ({ name, value, step, via: 'POST /login/device/code', inAnswer: true, reliedOn: [], ...more });

describe('relianceNote', () => {
  it('groups values by the step and the answer they came from', () => {
    const note = relianceNote([origin('expires_in', 600, 2), origin('interval', 5, 2), origin('auth_code', 'abc', 1, { via: 'user agent: approve' })]);
    expect(note).toBe('relying on values the target advertised: expires_in=600, interval=5 (captured from step 2, POST /login/device/code); auth_code="abc" (captured from step 1, user agent: approve)');
  });

  it('names the check that set a value, and a value it filled in apart from the advertised ones', () => {
    const note = relianceNote([origin('expires_in', 600, 1, { check: 'oauth.deviceStart' }), origin('interval', 5, 1, { check: 'oauth.deviceStart', inAnswer: false })]);
    expect(note).toBe(
      'relying on values the target advertised: expires_in=600 (captured from step 1, check oauth.deviceStart: POST /login/device/code); and relying on values a check set itself: interval=5 (not found in its answers; set by step 1, check oauth.deviceStart: POST /login/device/code)',
    );
  });

  it('cuts long text, never quotes a credential, says a field was missing, and leaves out whole answers', () => {
    const note = relianceNote([
      origin('device_code', 'a'.repeat(40), 1),
      origin('access_token', 'gho_secretvalue', 1),
      origin('new_interval', undefined, 1),
      origin('poll', { error: 'x' }, 1),
      origin('big', 9007199254740993n, 1),
    ]);
    expect(note).toBe(`relying on values the target advertised: device_code="${'a'.repeat(24)}"…, access_token (a 15-character value), new_interval (not in the answer), big=9007199254740993 (captured from step 1, POST /login/device/code)`);
    expect(note).not.toContain('gho_');
    expect(relianceNote([origin('poll', { error: 'x' }, 1)])).toBeUndefined();
    expect(relianceNote([])).toBeUndefined();
  });
});

describe('advertisedNote and explained', () => {
  it('leads with the decoding error of a judged value missing because its answer did not decode', () => {
    const judged = origin('error', undefined, 3, { via: 'POST /poll', undecoded: 'the body is not JSON: Unexpected token (first bytes: "<html>")' });
    const note = advertisedNote({ judged: [judged], reliedOn: [origin('interval', 5, 1)] });
    expect(explained('value: $ expected "slow_down", got (absent)', note)).toBe(
      'POST /poll (step 3): the body is not JSON: Unexpected token (first bytes: "<html>"); value: $ expected "slow_down", got (absent) — relying on values the target advertised: interval=5 (captured from step 1, POST /login/device/code)',
    );
  });

  it('leaves a message alone when nothing from the target was relied on', () => {
    expect(explained('status: expected 200, got 500', advertisedNote({ judged: [origin('x', 'present', 2)], reliedOn: [] }))).toBe('status: expected 200, got 500');
    expect(explained('m', undefined)).toBe('m');
  });
});
