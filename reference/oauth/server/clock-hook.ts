import type { Clock, ClockControl } from '../../../src/engine/clock.js';
import { jsonReply, type Reply } from './http-util.js';

export { OffsetClock } from '../../../src/engine/clock.js';

function controllable(clock: Clock): clock is ClockControl {
  return typeof (clock as Partial<ClockControl>).advance === 'function';
}

/**
 * The clock-control extension: `GET /__specgate/clock` answers `{now}`, and
 * `POST /__specgate/clock/advance` with `{"ms": N}` (JSON or form) lets N ms pass.
 * This is specgate's own convention for targets that offer one, not part of the spec.
 */
export async function clockHook(method: string, path: string, params: Record<string, string>, clock: Clock): Promise<Reply | undefined> {
  if (path === '/__specgate/clock' && method === 'GET') return jsonReply(200, { now: clock.now() });
  if (path !== '/__specgate/clock/advance') return undefined;
  if (method !== 'POST') return jsonReply(405, { message: 'use POST' });
  if (!controllable(clock)) return jsonReply(501, { message: 'this clock cannot be moved' });
  const ms = Number(params['ms'] ?? (params['seconds'] !== undefined ? Number(params['seconds']) * 1000 : NaN));
  if (!Number.isFinite(ms) || ms < 0) return jsonReply(400, { message: 'give a non-negative "ms" (or "seconds")' });
  await clock.advance(ms);
  return jsonReply(200, { now: clock.now() });
}
