import { SpecgateError } from '../../errors.js';
import { nodeExchange, type NodeAnswer } from '../node-exchange.js';
import { CLIENT_CLOCK_VAR } from './client-clock.js';

/**
 * The client side of a run's clock hook (client-clock.ts), for the bundled reference clients:
 * with SPECGATE_CLOCK_URL in the environment they wait and tell time through it; without it,
 * in real time. Over node:http (node-exchange.ts): a client asks the hook at every wait, and
 * the global fetch would load its whole client library into each of these short-lived processes.
 */
const TIMEOUT_MS = 30_000;

function hookTime(res: NodeAnswer, what: string): number {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  const now = body && typeof body === 'object' ? (body as Record<string, unknown>)['now'] : undefined;
  if (res.status < 200 || res.status > 299 || typeof now !== 'number') throw new SpecgateError('SG_TARGET_PROTOCOL', `the clock hook answered ${what} with HTTP ${res.status} and no time`);
  return now;
}

/** Waits `ms`: through the clock hook when the launch gives one, else in real time. */
export async function hookSleep(ms: number, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const wait = Math.max(0, Math.round(ms));
  const url = env[CLIENT_CLOCK_VAR];
  if (!url) return new Promise((resolve) => setTimeout(resolve, wait));
  hookTime(await nodeExchange(`${url}/sleep?ms=${wait}`, { method: 'POST', timeoutMs: TIMEOUT_MS }), 'a sleep');
}

/** Milliseconds since the epoch: the clock hook's time when the launch gives one, else the real time. */
export async function hookNow(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = env[CLIENT_CLOCK_VAR];
  if (!url) return Date.now();
  return hookTime(await nodeExchange(`${url}/now`, { timeoutMs: TIMEOUT_MS }), 'the time');
}
