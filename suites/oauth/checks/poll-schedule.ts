import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { comparePoll, DeviceMirror, observed } from './device-mirror.js';
import { pollDevice, startDevice } from './support.js';

/**
 * Polls a fresh device code on a generated schedule and compares every answer with the
 * model (spec 000, B, States and transitions: authorization_pending, slow_down with the
 * interval raised by 5 and carried in the response, the raised interval held afterwards).
 * Args: `delays` (a pollSchedule: seconds relative to the interval in force).
 */
export const pollSchedule: TypedCheck = async (ctx, args) => {
  const delays = (args['delays'] as number[] | undefined) ?? [];
  const start = await startDevice(ctx);
  const mirror = new DeviceMirror(start);
  for (const offset of delays) {
    const delay = mirror.delayFor(offset);
    await mirror.pass(ctx, delay);
    const waited = mirror.sinceLast();
    const expected = mirror.poll();
    const sent = await pollDevice(ctx, start.deviceCode);
    const actual = observed(sent);
    const broken = comparePoll(expected, actual, mirror, waited);
    if (broken) {
      ctx.fail({
        ...broken,
        expected: expected.ok ? { access_token: '(present)' } : { error: expected.error, ...(expected.interval !== undefined ? { interval: expected.interval } : {}) },
        actual,
        exchange: sent.exchange,
      });
      return;
    }
  }
};
