import { referenceClientCommand } from '../client/command.js';
import type { Clock } from '../../../src/engine/clock.js';
import type { ReferenceTarget, RunningReference } from '../../../src/engine/suite-module.js';
import type { Platform } from '../model/platform.js';
import { ReferenceUserAgent } from './agent.js';
import { bridgeActions, clockAdvance } from './bridge-actions.js';
import { OffsetClock } from './clock-hook.js';
import { startOAuthServer, type OAuthServerOptions, type RunningOAuthServer } from './server.js';

/**
 * The variables the oauth cases use, for the seeded reference platform. A profile for
 * another platform sets the same names.
 */
export function platformVars(server: Pick<RunningOAuthServer, 'authUrl' | 'apiUrl' | 'platform'>): Record<string, unknown> {
  const apps = server.platform.directory.apps;
  const app = (id: string) => apps.find((a) => a.clientId === id);
  const web = app('sg-web-app');
  const device = app('sg-device-app');
  const loopback = app('sg-loopback-app');
  const localhost = app('sg-localhost-app');
  const user = server.platform.directory.users[0];
  return {
    auth_url: server.authUrl,
    api_url: server.apiUrl,
    client_id: web?.clientId,
    client_secret: web?.clientSecret,
    callback_url: web?.callbackUrl,
    device_client_id: device?.clientId,
    disabled_device_client_id: app('sg-legacy-app')?.clientId,
    loopback_client_id: loopback?.clientId,
    loopback_callback_url: loopback?.callbackUrl,
    localhost_client_id: localhost?.clientId,
    localhost_callback_url: localhost?.callbackUrl,
    native_client_id: app('sg-native-app')?.clientId,
    user_login: user?.login,
    user_password: user?.password,
    user_id: user?.id,
    // the token settings page is not shown in the spec: the platform hands the token over here
    personal_access_token: user ? server.platform.personalAccessToken(user.id) : undefined,
    observations_url: `${server.authUrl}/__specgate/observations`,
  };
}

/**
 * The variables of a platform running as its own process: those of {@link platformVars} and its
 * user-agent bridge, which checks that drive the user agent themselves post to.
 */
export function servedVars(server: Pick<RunningOAuthServer, 'authUrl' | 'apiUrl' | 'platform'>): Record<string, unknown> {
  return { ...platformVars(server), agent_bridge_url: `${server.authUrl}/__specgate/agent` };
}

/** Starts the reference platform and its scripted user agent on `clock`. */
export async function startReference(opts: { clock: Clock; platform?: Platform; standalone?: boolean } & Partial<OAuthServerOptions>): Promise<RunningReference & { server: RunningOAuthServer }> {
  const { standalone, ...serverOpts } = opts;
  const server = await startOAuthServer({ ...serverOpts, clock: opts.clock });
  // the client-side cases judge the reference client unless `--client` names another
  const vars: Record<string, unknown> = { ...platformVars(server), client_command: referenceClientCommand() };
  // the in-process agent goes where the user goes: the origin the platform advertises
  const agent = new ReferenceUserAgent(server.authUrl, { login: String(vars['user_login']), password: String(vars['user_password']) });
  const where = server.authUrl === server.listenUrl ? server.authUrl : `${server.authUrl} (listening on ${server.listenUrl})`;
  return {
    description: `reference platform (spec 000 part B) at ${where}`,
    vars,
    agent,
    server,
    // another process reaches it through its clock hook and user-agent bridge; the client under
    // test is named by the run that judges one (--client), not by the platform's profile
    ...(standalone ? { served: { listening: server.listenUrl, vars: servedVars(server), clock: clockAdvance(), agent: { mode: 'scripted' as const, actions: bridgeActions() } } } : {}),
    stop: () => server.stop(),
  };
}

/**
 * The embedded default target of the oauth suite. Under `specgate serve` it runs on wall-clock
 * time plus the offset its clock hook adds, so a real client polling it sees time pass; in a
 * run it stays on the engine's virtual clock.
 */
export const oauthReference: ReferenceTarget = {
  start: ({ clock, port, standalone, publicUrl }) =>
    startReference({ clock: standalone ? new OffsetClock() : clock, ...(port ? { port } : {}), ...(standalone ? { standalone } : {}), ...(publicUrl ? { publicUrl } : {}) }),
  takesPublicUrl: true,
};
