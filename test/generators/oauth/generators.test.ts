import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceActions } from '../../../generators/oauth/device-actions.js';
import { pkceCase } from '../../../generators/oauth/pkce-case.js';
import { pollSchedule } from '../../../generators/oauth/poll-schedule.js';
import { callbackApps, redirectCandidate } from '../../../generators/oauth/redirect-candidate.js';
import { matchRedirect } from '../../../reference/oauth/model/redirect.js';
import { checkChallenge } from '../../../reference/oauth/model/pkce.js';

const APPS = callbackApps({
  client_id: 'web', callback_url: 'http://app.example.test/callback',
  loopback_client_id: 'lo', loopback_callback_url: 'http://127.0.0.1/callback',
  localhost_client_id: 'lh', localhost_callback_url: 'http://localhost/callback',
});

/** What the spec's table and rules say about each kind the generator produces. */
const ACCEPTED = new Set([
  'same host, same path', 'same host, deeper path', 'sub-domain, same path', 'sub-domain, deeper path', 'upper-case host', 'query kept',
  'loopback literal, any port', 'loopback literal, any port, deeper path',
]);

describe('oauth generators', () => {
  it('redirect candidates: the model agrees with the spec row each kind stands for', () => {
    fc.assert(
      fc.property(redirectCandidate(APPS), (c) => {
        expect(matchRedirect(c.callback, c.redirect_uri).accepted, `${c.kind}: ${c.redirect_uri}`).toBe(ACCEPTED.has(c.kind));
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('redirect candidates reach every kind', () => {
    const kinds = new Set(fc.sample(redirectCandidate(APPS), { numRuns: 3000, seed: 3 }).map((c) => c.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(20);
  });

  it('PKCE cases: only S256 with a 43-character challenge, or no PKCE, pass the authorization check', () => {
    fc.assert(
      fc.property(pkceCase(), (c) => {
        const ok = checkChallenge(c.code_challenge ?? undefined, c.code_challenge_method ?? undefined).ok;
        expect(ok).toBe(c.kind.startsWith('S256') || c.kind === 'no PKCE');
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('poll schedules and device actions stay within their bounds', () => {
    for (const s of fc.sample(pollSchedule(), { numRuns: 100, seed: 1 })) {
      expect(s.length).toBeGreaterThanOrEqual(2);
      expect(s.every((d) => d >= -5 && d <= 3)).toBe(true);
    }
    for (const a of fc.sample(deviceActions(), { numRuns: 100, seed: 1 })) expect(a.length).toBeLessThanOrEqual(10);
  });
});
