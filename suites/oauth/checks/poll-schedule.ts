import { defineCheck } from '../../../src/engine/checks/contract.js';
import { comparePoll, DeviceMirror, expectedPoll, observed, PollEvidence, pollJudged } from './device-mirror.js';
import { pollDevice, startDevice } from './support.js';

const POLL_SCHEDULE_JUDGES = ['OAUTH-DEVICE-PENDING', 'OAUTH-DEVICE-SLOW-DOWN', 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL', 'OAUTH-DEVICE-INTERVAL-RAISED', 'OAUTH-DEVICE-EXPIRED-TOKEN'];

/**
 * Polls a fresh device code on a generated schedule and compares every answer with the
 * model (spec 000, B, States and transitions: authorization_pending, slow_down with the
 * interval raised by 5 and carried in the response, the raised interval held afterwards).
 * Nobody acts on the code, so an answer can only break the pending, slow-down and expiry rules.
 */
export const pollSchedule = defineCheck<{ delays: number[] }>({
  description: 'polls a fresh device code on a schedule (seconds off the interval in force) and compares every answer with the model',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['delays'],
    properties: { delays: { type: 'array', items: { type: 'number' }, description: 'a pollSchedule: seconds relative to the interval in force' } },
  },
  judges: POLL_SCHEDULE_JUDGES,
  async run(ctx, { delays }) {
    const start = await startDevice(ctx);
    const mirror = new DeviceMirror(start);
    // each rule counts the answers that tested it; one this schedule never reached is not judged by it
    const evidence = new PollEvidence();
    try {
      for (const offset of delays) {
        await mirror.pass(ctx, mirror.delayFor(offset));
        const waited = mirror.sinceLast();
        const expected = mirror.poll();
        const sent = await pollDevice(ctx, start.deviceCode);
        const actual = observed(sent);
        const broken = comparePoll(expected, actual, mirror, waited);
        if (broken) {
          ctx.fail({ ...broken, expected: expectedPoll(expected), actual, exchange: sent.exchange });
          return;
        }
        evidence.add(pollJudged(expected, actual, mirror, waited));
      }
    } finally {
      evidence.report(ctx, POLL_SCHEDULE_JUDGES, 'no poll of this schedule was answered by that rule (the schedule never reached it, or an earlier answer broke another rule)');
    }
  },
});
