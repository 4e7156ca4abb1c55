import * as fc from 'fast-check';
import { isTokenRequest, toExchange } from './client-log.js';
import { PASS, fail, unjudged, type Verdict } from '../../../src/engine/checks/contract.js';
import type { WebRun } from './client-web-run.js';

/**
 * `state` on the client side (spec 000, B, Endpoints 1 and Authentication 1):
 * OAUTH-CLIENT-STATE, an unguessable random string is sent; OAUTH-CLIENT-STATE-ABORT, a redirect
 * whose state differs from the one sent ends the flow: the code it carries is never exchanged.
 */

/** The bar for "unguessable": guessing must be no likelier than 2^-128 (RFC 6749, 10.10). */
export const STATE_MIN_BITS = 128;

/**
 * Entropy estimated from outside: the shortest value's length times log2 of the alphabet the
 * values draw from, the alphabet guessed from the character classes seen (values that are all
 * hexadecimal count 16 symbols). The estimate can overrate a weak generator (Math.random looks
 * as good as a CSPRNG) but hardly underrates a strong one, so a low figure is a sound finding.
 */
export function estimatedBits(values: readonly string[]): number {
  const all = values.join('');
  if (!all) return 0;
  let alphabet: number;
  if (/^[0-9a-f]+$/.test(all) || /^[0-9A-F]+$/.test(all)) alphabet = 16;
  else {
    alphabet = 0;
    if (/[0-9]/.test(all)) alphabet += 10;
    if (/[a-z]/.test(all)) alphabet += 26;
    if (/[A-Z]/.test(all)) alphabet += 26;
    alphabet += new Set(all.replace(/[A-Za-z0-9]/g, '')).size;
  }
  const shortest = Math.min(...values.map((v) => v.length));
  return Math.round(shortest * Math.log2(Math.max(alphabet, 2)));
}

export function judgeStateUnguessable(runs: readonly WebRun[]): Verdict {
  const seen = runs.filter((r) => r.authorizeUrl);
  if (seen.length < 2) return unjudged(runs.find((r) => r.problem)?.problem ?? 'the client did not print two authorization URLs');
  const states = seen.map((r) => r.authorizeUrl?.searchParams.get('state') ?? null);
  const note = { kind: 'note' as const, summary: 'authorization URLs of two launches', request: seen.map((r) => r.authorizeUrl?.toString()) };
  if (states.some((s) => s === null || s === '')) return fail('the authorization request carries no state', { expected: 'state=<unguessable random string>', actual: states, exchange: note });
  const values = states as string[];
  if (new Set(values).size < values.length) return fail('two launches sent the same state: it is not random', { expected: 'a different state in every authorization request', actual: values, exchange: note });
  const bits = estimatedBits(values);
  if (bits < STATE_MIN_BITS) {
    return fail(`the state carries about ${bits} bits (length ${Math.min(...values.map((v) => v.length))} over the alphabet it uses), short of the ${STATE_MIN_BITS} bits an unguessable value needs`, {
      expected: `at least ${STATE_MIN_BITS} bits, e.g. 32 random bytes in base64url (43 characters)`,
      actual: values,
      exchange: note,
    });
  }
  return PASS;
}

/** How the harness changes the state of a genuine redirect. */
export type StateMutation =
  | { kind: 'other'; value: string }
  | { kind: 'missing' }
  | { kind: 'empty' }
  | { kind: 'truncated' }
  | { kind: 'extended'; suffix: string }
  | { kind: 'case-flipped' };

/** Each kind of change once: a finite set, run in full rather than sampled. */
export const FIXED_MUTATIONS: readonly StateMutation[] = [{ kind: 'missing' }, { kind: 'empty' }, { kind: 'truncated' }, { kind: 'case-flipped' }];

/** Generated changes: another value altogether, or the genuine state with something appended. */
export const generatedMutation: fc.Arbitrary<StateMutation> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,4}$/).map((suffix): StateMutation => ({ kind: 'extended', suffix })),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/).map((value): StateMutation => ({ kind: 'other', value })),
);

function flipCase(s: string): string {
  const flipped = [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return flipped === s ? `${s}X` : flipped;
}

/** The redirect with its state changed as `m` says; always different from the genuine one. */
export function tamperState(m: StateMutation): (location: URL) => URL {
  return (location) => {
    const u = new URL(location);
    const genuine = u.searchParams.get('state') ?? '';
    const set = (v: string): void => u.searchParams.set('state', v === genuine ? `${v}x` : v);
    switch (m.kind) {
      case 'missing':
        u.searchParams.delete('state');
        break;
      case 'empty':
        set('');
        break;
      case 'truncated':
        set(genuine.slice(0, -1));
        break;
      case 'extended':
        set(genuine + m.suffix);
        break;
      case 'case-flipped':
        set(flipCase(genuine));
        break;
      case 'other':
        set(m.value);
        break;
    }
    return u;
  };
}

export function judgeStateAbort(run: WebRun): Verdict {
  if (!run.authorizeUrl) return unjudged(run.problem ?? 'the client printed no authorization URL');
  if (!run.authorizeUrl.searchParams.get('state')) return unjudged('the client sends no state (see OAUTH-CLIENT-STATE), so there is no state to mismatch');
  const code = run.redirect?.searchParams.get('code');
  if (!run.delivered || !code) return unjudged(run.problem ?? 'the tampered redirect was not delivered');
  const used = run.requests.find((e) => isTokenRequest(e) && e.params['code'] === code);
  if (used) {
    return fail('the client exchanged the code of a redirect whose state differs from the one it sent, instead of aborting', {
      expected: { sent_state: run.authorizeUrl.searchParams.get('state'), delivered: run.delivered.url, then: 'no exchange of that code' },
      actual: `POST /login/oauth/access_token with code=${code}`,
      exchange: toExchange(used, run.t0),
    });
  }
  return PASS;
}
