import { SpecgateError } from '../../../src/errors.js';

/**
 * The launch contract between specgate (playing the monitoring API of spec 002 part G and the
 * platform events API of part H) and a client of those services under test: the harness starts
 * the client as a process with these environment variables and judges every request it sends.
 * See README.md in this folder.
 */
export const EVENTS_CLIENT_ENV = {
  monUrl: 'SPECGATE_MON_URL',
  ipRangesUrl: 'SPECGATE_IP_RANGES_URL',
  monApiKey: 'SPECGATE_MON_API_KEY',
  monAppKey: 'SPECGATE_MON_APP_KEY',
  apiUrl: 'SPECGATE_API_URL',
  apiToken: 'SPECGATE_API_TOKEN',
  owner: 'SPECGATE_OWNER',
  repo: 'SPECGATE_REPO',
} as const;

export type EventsClientEnv = { -readonly [K in keyof typeof EVENTS_CLIENT_ENV]: string };

/** Exit statuses of the bundled clients (a client under test may use any non-zero status for failures). */
export const EVENTS_CLIENT_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Reads and checks the contract's variables; throws SG_CONFIG naming the one that is missing or wrong. */
export function readEventsClientEnv(env: NodeJS.ProcessEnv): EventsClientEnv {
  const out: Partial<EventsClientEnv> = {};
  for (const [key, name] of Object.entries(EVENTS_CLIENT_ENV) as [keyof EventsClientEnv, string][]) {
    const v = env[name];
    if (v === undefined || v.trim() === '') throw new SpecgateError('SG_CONFIG', `${name} is not set: start this client with the variables of the events client launch contract (reference/events/client/README.md)`);
    out[key] = v.trim();
  }
  const read = out as EventsClientEnv;
  for (const key of ['monUrl', 'ipRangesUrl', 'apiUrl'] as const) {
    read[key] = read[key].replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/.test(read[key])) throw new SpecgateError('SG_CONFIG', `${EVENTS_CLIENT_ENV[key]} must be an http(s) URL, not "${read[key]}"`);
  }
  return read;
}
