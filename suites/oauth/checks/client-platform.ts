import { randomBytes } from 'node:crypto';
import { RealClock } from '../../../src/engine/clock.js';
import { SpecgateError } from '../../../src/errors.js';
import { freePort, type ClientHarness } from '../../../src/targets/client-process/harness.js';
import { seededDirectory, type Directory } from '../../../reference/oauth/model/directory.js';
import { Platform } from '../../../reference/oauth/model/platform.js';
import { LOOPBACK_HOSTS, matchRedirect, type RedirectVerdict } from '../../../reference/oauth/model/redirect.js';
import { ReferenceUserAgent } from '../../../reference/oauth/server/agent.js';
import type { ObservationLog } from '../../../reference/oauth/server/observation.js';
import { startOAuthServer, type RunningOAuthServer } from '../../../reference/oauth/server/server.js';
import type { ClientEnv, ClientFlow } from '../../../reference/oauth/client/contract.js';
import { HarnessDeviceFlow, type DeviceScript } from './client-device-flow.js';

/**
 * The platform the client-side cases play: the reference platform server (spec 000 part B) on
 * 127.0.0.1, on the client harness's clock: real time plus what the client slept through the
 * clock hook, so a client that waits for real is judged in real time and one on the hook in
 * milliseconds. Every request is in `log`, stamped on that clock.
 * Started inside the client-process harness (src/targets/client-process/harness.ts), it runs on
 * the harness's clock and is stopped with the case.
 */
export interface ClientPlatform {
  server: RunningOAuthServer;
  log: ObservationLog;
  device: HarnessDeviceFlow;
  /** The person at the browser: signs in, approves or cancels, enters user codes. */
  user: ReferenceUserAgent;
  env: ClientEnv;
  stop(): Promise<void>;
}

export interface ClientPlatformOptions {
  flow: ClientFlow;
  /** `interval` handed out with device codes (seconds). */
  interval?: number;
  script?: DeviceScript;
  toleranceMs: number;
  seed: number;
  /** SPECGATE_SCOPE for the client (default {@link CLIENT_SCOPE}). */
  scope?: string;
  /** `expires_in` handed out with device codes (seconds; default the spec's 900). */
  expiresIn?: number;
}

export const CLIENT_APP_ID = 'sg-client-under-test';
/** Two scopes by default: the granted list comes back comma-separated (B, Resources), which a client must cope with. */
export const CLIENT_SCOPE = 'repo read:user';

const LOOPBACK_NAMES = ['localhost', ...LOOPBACK_HOSTS];

/**
 * The spec's redirect rules, except that the three loopback spellings count as one host.
 * The harness registers the callback once, but a client may pick `localhost` or `::1`; the
 * literal-over-localhost preference is judged once, by OAUTH-CLIENT-LOOPBACK-LITERAL, instead
 * of making every web-flow case fail on the platform's host rule.
 */
export function loopbackTolerantMatch(callback: string, candidate: string | undefined): RedirectVerdict {
  if (candidate !== undefined && URL.canParse(candidate) && URL.canParse(callback)) {
    const u = new URL(candidate);
    const c = new URL(callback);
    if (LOOPBACK_NAMES.includes(u.hostname) && LOOPBACK_HOSTS.includes(c.hostname) && u.hostname !== c.hostname) {
      u.hostname = c.hostname;
      const v = matchRedirect(callback, u.toString());
      return v.accepted ? { ...v, effective: candidate } : v;
    }
  }
  return matchRedirect(callback, candidate);
}

export async function startClientPlatform(opts: ClientPlatformOptions, harness?: ClientHarness): Promise<ClientPlatform> {
  const seeded = seededDirectory();
  const callbackUrl = `http://127.0.0.1:${await (harness ? harness.freePort() : freePort())}/callback`;
  const clientSecret = `sg-client-secret-${randomBytes(8).toString('hex')}`;
  const directory: Directory = {
    apps: [{ clientId: CLIENT_APP_ID, clientSecret, name: 'Application under test', callbackUrl, deviceFlowEnabled: true }],
    users: seeded.users,
  };
  let device: HarnessDeviceFlow | undefined;
  const clock = harness?.clock ?? new RealClock();
  const platform = new Platform({
    clock,
    seed: opts.seed,
    directory,
    limits: { defaultIntervalSeconds: opts.interval ?? 1, ...(opts.expiresIn !== undefined ? { deviceTtlSeconds: opts.expiresIn } : {}) },
    rules: { matchRedirect: loopbackTolerantMatch },
    parts: { device: (deps) => (device = new HarnessDeviceFlow(deps, opts.script ?? {}, opts.toleranceMs)) },
  });
  if (!device) throw new SpecgateError('SG_INTERNAL', 'the reference platform did not build its device flow through the parts hook');
  const server = await startOAuthServer({ clock, platform, hooks: false });
  harness?.own(server);
  const person = seeded.users[0];
  return {
    server,
    log: server.log,
    device,
    user: new ReferenceUserAgent(server.authUrl, { login: person?.login ?? '', password: person?.password ?? '' }),
    env: { flow: opts.flow, authUrl: server.authUrl, apiUrl: server.apiUrl, clientId: CLIENT_APP_ID, clientSecret, callbackUrl, scope: opts.scope ?? CLIENT_SCOPE },
    stop: () => server.stop(),
  };
}
