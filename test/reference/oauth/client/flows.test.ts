import { afterEach, describe, expect, it } from 'vitest';
import { clientEnvVars } from '../../../../reference/oauth/client/contract.js';
import { runClient } from '../../../../reference/oauth/client/run.js';
import type { ClientIo } from '../../../../reference/oauth/client/session.js';
import { startClientPlatform, type ClientPlatform } from '../../../../suites/oauth/checks/client-platform.js';
import { findAuthorizeUrl } from '../../../../suites/oauth/checks/client-web-run.js';

/**
 * The reference client run in-process against the platform the client-side cases play, with
 * this test as the person at the browser: it completes both flows and ends on the answers that
 * end them.
 */

let platform: ClientPlatform | undefined;
afterEach(async () => {
  await platform?.stop();
  platform = undefined;
});

function capture(): ClientIo & { lines: string[]; waitFor(re: RegExp): Promise<string> } {
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  return {
    lines,
    say: (l) => {
      lines.push(l);
      for (const w of waiters.splice(0)) w();
    },
    warn: (l) => void lines.push(`! ${l}`),
    waitFor(re) {
      return new Promise((resolve) => {
        const check = (): void => {
          const hit = lines.find((l) => re.test(l));
          if (hit) resolve(hit);
          else waiters.push(check);
        };
        check();
      });
    },
  };
}

const paths = (p: ClientPlatform): string[] => p.log.since(0).map((e) => `${e.method} ${e.path} ${e.status}`);

describe('reference client, web flow', () => {
  it('exchanges the code with secret, redirect_uri and verifier, then revalidates with Bearer', async () => {
    const p = (platform = await startClientPlatform({ flow: 'web', toleranceMs: 250, seed: 1 }));
    const io = capture();
    const status = runClient(clientEnvVars(p.env), {}, io);
    const url = findAuthorizeUrl(await io.waitFor(/login\/oauth\/authorize/));
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    const consent = await p.user.perform('approve', { query: Object.fromEntries(url?.searchParams ?? []) });
    const delivered = await fetch(String(consent['location']));
    expect(delivered.status).toBe(200);
    expect(await status).toBe(0);
    const exchange = p.log.since(0).find((e) => e.path === '/login/oauth/access_token');
    expect(exchange?.params).toMatchObject({ client_id: p.env.clientId, client_secret: p.env.clientSecret, redirect_uri: url?.searchParams.get('redirect_uri') });
    expect(exchange?.params['code_verifier']).toHaveLength(43);
    const api = p.log.since(0).find((e) => e.path === '/api/user');
    expect(api?.headers['authorization']).toMatch(/^Bearer sgt_/);
    expect(io.lines.at(-1)).toMatch(/Signed in as octo-tester/);
  });

  it('aborts on a state it did not send and exchanges nothing', async () => {
    const p = (platform = await startClientPlatform({ flow: 'web', toleranceMs: 250, seed: 2 }));
    const io = capture();
    const status = runClient(clientEnvVars(p.env), {}, io);
    const url = findAuthorizeUrl(await io.waitFor(/login\/oauth\/authorize/));
    const consent = await p.user.perform('approve', { query: Object.fromEntries(url?.searchParams ?? []) });
    const forged = new URL(String(consent['location']));
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
    expect(await status).toBe(2);
    expect(paths(p).filter((l) => l.includes('access_token'))).toEqual([]);
  });
});

describe('reference client, device flow', () => {
  it('shows the code, waits the interval, and gets the token once the user approves', async () => {
    const p = (platform = await startClientPlatform({ flow: 'device', interval: 1, toleranceMs: 250, seed: 3 }));
    const io = capture();
    const status = runClient(clientEnvVars(p.env), {}, io);
    const shown = await io.waitFor(/enter the code/);
    const code = /([A-Z]{4}-[A-Z]{4})/.exec(shown)?.[1] ?? '';
    expect(io.lines.join('\n')).toContain(`${p.env.authUrl}/login/device`);
    expect((await p.user.perform('approve-device', { user_code: code }))['outcome']).toBe('authorized');
    expect(await status).toBe(0);
    const polls = p.log.since(0).filter((e) => e.path === '/login/oauth/access_token');
    expect(polls[0]?.params).toEqual({ client_id: p.env.clientId, device_code: expect.any(String), grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    const start = p.log.since(0).find((e) => e.path === '/login/device/code');
    expect((polls[0]?.at ?? 0) - (start?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  }, 20_000);

  it('stops at access_denied', async () => {
    const p = (platform = await startClientPlatform({ flow: 'device', interval: 1, toleranceMs: 250, seed: 4 }));
    const io = capture();
    const status = runClient(clientEnvVars(p.env), {}, io);
    const code = /([A-Z]{4}-[A-Z]{4})/.exec(await io.waitFor(/enter the code/))?.[1] ?? '';
    await p.user.perform('deny-device', { user_code: code });
    expect(await status).toBe(2);
    expect(paths(p).filter((l) => l.includes('access_token'))).toHaveLength(1);
  }, 20_000);

  it('requests a new device code after expired_token and completes with it', async () => {
    const p = (platform = await startClientPlatform({ flow: 'device', interval: 1, script: { expireAtPoll: 1 }, toleranceMs: 250, seed: 5 }));
    const io = capture();
    const status = runClient(clientEnvVars(p.env), {}, io);
    await io.waitFor(/requesting a new one/);
    const codes = io.lines.map((l) => /([A-Z]{4}-[A-Z]{4})/.exec(l)?.[1]).filter(Boolean);
    await io.waitFor(new RegExp(`enter the code: (?!${codes[0]})`));
    const fresh = io.lines.map((l) => /([A-Z]{4}-[A-Z]{4})/.exec(l)?.[1]).filter(Boolean).at(-1) ?? '';
    expect(fresh).not.toBe(codes[0]);
    await p.user.perform('approve-device', { user_code: fresh });
    expect(await status).toBe(0);
    expect(paths(p).filter((l) => l.includes('/login/device/code'))).toHaveLength(2);
  }, 20_000);
});
