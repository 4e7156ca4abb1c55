import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { freePort } from '../../../src/targets/free-port.js';
import { DELEGATING_CLIENT_ID } from '../../../reference/ctx-auth/server/delegation.js';
import { startCtxServer, type RunningCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { thirdPartyAt, type PlayedThirdParty } from '../../../suites/ctx-auth/checks/third-party-server.js';
import { PUBLIC_REDIRECT, VERIFIER, authorize, call, callResource, exchange } from './http-helpers.js';

/**
 * The reference server delegating to a third-party authorization server (spec 000 part C,
 * Authentication 9), against the third party the suite plays: the user is sent there and back,
 * its code is exchanged, the client gets the server's own token, honored while the third-party
 * session is valid (renewed after an expiry, refused after a revocation), and a refusal of the
 * third party reaches the client as an error.
 */
const running: RunningCtxServer[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
});

async function delegating(): Promise<{ server: RunningCtxServer; tp: PlayedThirdParty }> {
  const tp = await thirdPartyAt(`http://127.0.0.1:${await freePort()}`);
  const server = await startCtxServer({ clock: new VirtualClock(Date.UTC(2026, 0, 1)), delegateTo: tp.url });
  running.push(server);
  return { server, tp };
}

/** Follows the browser from the server to the third party and back; the last Location. */
async function throughThirdParty(server: RunningCtxServer): Promise<URL> {
  const first = await authorize(`${server.origin}/authorize`);
  expect(first.got.status).toBe(302);
  let location = first.location;
  for (let hop = 0; hop < 3 && location && location.origin !== new URL(PUBLIC_REDIRECT).origin; hop++) {
    const next = await call(location.href);
    location = next.headers['location'] ? new URL(next.headers['location']) : undefined;
  }
  if (!location) throw new Error('no redirect back to the client');
  return location;
}

describe('ctx-auth reference server delegating to a third party', () => {
  it('sends the user to the third party, exchanges its code, and issues its own token', async () => {
    const { server, tp } = await delegating();
    const first = await authorize(`${server.origin}/authorize`);
    expect(first.location?.origin).toBe(tp.url);
    expect(first.location?.searchParams.get('client_id')).toBe(DELEGATING_CLIENT_ID);
    const back = await throughThirdParty(server);
    expect(back.searchParams.get('state')).toBe('st-123');
    const session = tp.sessions[tp.sessions.length - 1];
    expect(session?.exchanged).toBe(true);
    const got = await exchange(`${server.origin}/token`, { grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
    const token = String(got.json['access_token']);
    expect(session?.accessTokens).not.toContain(token);
    expect((await callResource(server.serverUrl, token)).status).toBe(200);
  });

  it('renews an expired third-party token, and refuses its own token once the session is revoked', async () => {
    const { server, tp } = await delegating();
    const back = await throughThirdParty(server);
    const got = await exchange(`${server.origin}/token`, { grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', code_verifier: VERIFIER, client_id: 'sg-ctx-public', redirect_uri: PUBLIC_REDIRECT });
    const token = String(got.json['access_token']);
    const session = tp.sessions[tp.sessions.length - 1];
    if (!session) throw new Error('no third-party session');
    for (const t of session.accessTokens) session.expired.add(t);
    expect((await callResource(server.serverUrl, token)).status).toBe(200);
    expect((await callResource(server.serverUrl, token)).status).toBe(200);
    expect(session.renewals).toBe(1);
    session.revoked = true;
    expect((await callResource(server.serverUrl, token)).status).toBe(401);
  });

  it('sends a refusal of the third party to the client as access_denied, with no code', async () => {
    const { server, tp } = await delegating();
    tp.denyNext = true;
    const back = await throughThirdParty(server);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('state')).toBe('st-123');
  });
});
