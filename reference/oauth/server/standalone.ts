import { serveUntilStopped } from '../../../src/targets/serve-until-stopped.js';
import { writeFileSync } from 'node:fs';
import { bridgeActions, clockAdvance } from './bridge-actions.js';
import { OffsetClock } from './clock-hook.js';
import { servedVars } from './reference-target.js';
import { startOAuthServer, type OAuthServerOptions } from './server.js';
import { flagValue } from '../../../src/targets/flag-value.js';

/**
 * Runs the reference platform as its own process on 127.0.0.1 (`specgate serve oauth`, planted
 * faults, manual poking with curl). Prints one JSON line with the variables, optionally writes a
 * target profile, and stops by itself after `--lifetime` seconds (default 600) or on SIGTERM.
 *
 * Flags: `--port N`, `--lifetime S`, `--profile FILE`, `--name LABEL`.
 */
export async function runStandalone(argv: readonly string[], configure?: (clock: OffsetClock) => Partial<OAuthServerOptions>): Promise<void> {
  const flag = (name: string): string | undefined => flagValue(argv, name);
  const clock = new OffsetClock();
  const server = await startOAuthServer({ ...configure?.(clock), clock, port: Number(flag('port') ?? 0) });
  const vars = servedVars(server);
  const profile = flag('profile');
  if (profile) writeFileSync(profile, profileYaml(flag('name') ?? 'oauth reference platform', vars));
  process.stdout.write(`${JSON.stringify(vars)}\n`);
  const lifetime = Number(flag('lifetime') ?? 600) * 1000;
  serveUntilStopped(() => server.stop(), lifetime);
}

/**
 * A target profile for a platform that serves specgate's clock hook and user-agent bridge
 * (`POST {auth_url}/__specgate/agent/<action>`). JSON is valid YAML, so no YAML writer is needed.
 */
export function profileYaml(name: string, vars: Record<string, unknown>, opts: { clock?: boolean } = {}): string {
  const section = {
    vars,
    // the credentials among the variables (a profile may list only names it sets)
    secrets: ['client_secret', 'user_password', 'personal_access_token'].filter((name) => vars[name] !== undefined),
    ...(opts.clock === false ? {} : { clock: clockAdvance() }),
    agent: { mode: 'scripted', actions: bridgeActions() },
  };
  return `# yaml-language-server: $schema=../../schemas/target-profile.schema.json\n${JSON.stringify({ name, suites: { oauth: section } }, null, 2)}\n`;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void runStandalone(process.argv.slice(2));
