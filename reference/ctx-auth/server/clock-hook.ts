import type { Clock, ClockControl } from '../../../src/engine/clock.js';
import { jsonAnswer, type CtxAnswer } from './answers.js';

export { OffsetClock } from '../../../src/engine/clock.js';

function controllable(clock: Clock): clock is ClockControl {
  return typeof (clock as Partial<ClockControl>).advance === 'function';
}

/** Where the hooks are served; never recorded, never part of the protocol. */
export const HOOK_PREFIX = '/__specgate/';

/**
 * specgate's clock-control convention for targets that offer one (not part of the spec):
 * `GET /__specgate/clock` answers `{now}`, `POST /__specgate/clock/advance` with `{"ms": N}`
 * (or `{"seconds": N}`) lets N pass. Undefined for any other path.
 */
export async function clockHook(method: string, path: string, body: string, clock: Clock): Promise<CtxAnswer | undefined> {
  if (path === '/__specgate/clock' && method === 'GET') return jsonAnswer(200, { now: clock.now() });
  if (path !== '/__specgate/clock/advance') return undefined;
  if (method !== 'POST') return jsonAnswer(405, { message: 'use POST' }, { allow: 'POST' });
  if (!controllable(clock)) return jsonAnswer(501, { message: 'this clock cannot be moved' });
  let asked: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) asked = parsed as Record<string, unknown>;
  } catch {
    asked = Object.fromEntries(new URLSearchParams(body));
  }
  const ms = asked['ms'] !== undefined ? Number(asked['ms']) : Number(asked['seconds']) * 1000;
  if (!Number.isFinite(ms) || ms < 0) return jsonAnswer(400, { message: 'give a non-negative "ms" (or "seconds")' });
  await clock.advance(ms);
  return jsonAnswer(200, { now: clock.now() });
}
