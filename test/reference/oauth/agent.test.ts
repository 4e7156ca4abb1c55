import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { ReferenceUserAgent } from '../../../reference/oauth/server/agent.js';
import { startOAuthServer, type RunningOAuthServer } from '../../../reference/oauth/server/server.js';
import { startFaultGateway, type FaultGateway } from '../../fixtures/oauth/gateway/fault-gateway.js';

/**
 * The reference user agent opens the verification page the device authorization named
 * (spec 000, B, Endpoints 4), wherever that is, and follows the forms of the page it is on; its
 * session cookie goes only to the origin that set it.
 */
let server: RunningOAuthServer;
let gateway: FaultGateway;
let user: { login: string; password: string };

beforeAll(async () => {
  server = await startOAuthServer({ clock: new VirtualClock() });
  // another origin in front of the same platform, which refuses the device flow's Authorize button
  gateway = await startFaultGateway({ upstream: server.listenUrl, fault: 'device-approval-refused' });
  const first = server.platform.directory.users[0];
  user = { login: first?.login ?? '', password: first?.password ?? '' };
});
afterAll(async () => {
  await gateway.stop();
  await server.stop();
});

async function userCode(): Promise<{ user_code: string; verification_uri: string }> {
  const res = await request(`${server.authUrl}/login/device/code`, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=sg-device-app' });
  return (await res.body.json()) as { user_code: string; verification_uri: string };
}

describe('ReferenceUserAgent on the device flow', () => {
  it('opens the verification_uri it is given, not a page of its own origin', async () => {
    const agent = new ReferenceUserAgent(server.authUrl, user);
    const direct = await userCode();
    expect(await agent.perform('approve-device', { user_code: direct.user_code })).toMatchObject({ outcome: 'authorized', accepted: true });
    // the same agent, sent to the gateway's verification page, meets what the gateway does there
    const through = await userCode();
    const r = await agent.perform('approve-device', { user_code: through.user_code, verification_uri: `${gateway.url}/login/device` });
    expect(r).toMatchObject({ outcome: 'rejected', accepted: true, status: 403 });
    expect(gateway.changes).toEqual(['refused POST /login/device/decision (decision=approve) with 403']);
    // at the gateway it signed in on its own (a cookie goes only where it came from), then entered the code and approved
    expect(gateway.seen).toEqual(['POST /session', 'GET /login/device', 'POST /login/device', 'POST /login/device/decision']);
  });

  it('reports a verification page without a user-code form, and a verification_uri that is no URL, without entering the code', async () => {
    const agent = new ReferenceUserAgent(server.authUrl, user);
    const { user_code } = await userCode();
    expect(await agent.perform('enter-user-code', { user_code, verification_uri: `${server.authUrl}/device` })).toMatchObject({ outcome: 'rejected', accepted: null, status: 404, reason: `no user-code form on ${server.authUrl}/device` });
    expect(await agent.perform('enter-user-code', { user_code, verification_uri: 'http://[' })).toMatchObject({ outcome: 'rejected', accepted: null, reason: 'verification_uri "http://[" is not a URL' });
    // the code was never submitted: it is still taken on the right page
    expect(await agent.perform('enter-user-code', { user_code, verification_uri: `${server.authUrl}/login/device` })).toMatchObject({ outcome: 'accepted', accepted: true });
  });
});
