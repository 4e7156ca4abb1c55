import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { deviceActions, type DeviceAction } from '../../../generators/oauth/device-actions.js';
import { comparePoll, DeviceMirror, expectedPoll, observed, PollEvidence, pollJudged } from './device-mirror.js';
import { act, pollDevice, startDevice } from './support.js';

const USER = 1001;

const DEVICE_MODEL_JUDGES = [
  'OAUTH-DEVICE-PENDING',
  'OAUTH-DEVICE-SLOW-DOWN',
  'OAUTH-DEVICE-SLOW-DOWN-INTERVAL',
  'OAUTH-DEVICE-INTERVAL-RAISED',
  'OAUTH-DEVICE-AUTHORIZED-TOKEN',
  'OAUTH-DEVICE-ACCESS-DENIED',
  'OAUTH-DEVICE-USER-CODE-SPENT',
  'OAUTH-DEVICE-EXPIRED-TOKEN',
  'OAUTH-DEVICE-USER-CODE-EXPIRY',
  'OAUTH-DEVICE-UNSUPPORTED-GRANT-TYPE',
  'OAUTH-DEVICE-INCORRECT-CLIENT',
  'OAUTH-DEVICE-INCORRECT-DEVICE-CODE',
];

/**
 * Model-based comparison of the device flow (spec 000, B, States and transitions; B, Errors):
 * generated sequences of polls, faulty polls, the user authorizing, cancelling or re-entering
 * the code, and time passing, run against a fresh device code of the target and the model
 * side by side; every answer must agree. Points the spec leaves open (re-entering a code
 * already authorized, polling after the token was issued) end a sequence unjudged.
 */
export const deviceModel = defineCheck<{ runs?: number }>({
  description: 'runs generated device-flow sequences against the target and the model side by side; every answer must agree',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { runs: { type: 'integer', minimum: 1, description: 'sequences to run (default 20)' } },
  },
  judges: DEVICE_MODEL_JUDGES,
  run: (ctx, args) => compareSequences(ctx, args.runs ?? 20),
});

async function compareSequences(ctx: CheckContext, runs: number): Promise<void> {
  let submissions = 0;
  // each rule counts the answers that tested it; one no sequence reached is not judged here
  const evidence = new PollEvidence();
  // Clear the hour of user code submissions other cases used (50 per hour per application).
  await ctx.wait(3600);
  try {
    await ctx.property(
      deviceActions(),
      async (actions) => {
        if (submissions > 40) {
          await ctx.wait(3600);
          submissions = 0;
        }
        const start = await startDevice(ctx);
        const mirror = new DeviceMirror(start);
        for (const a of actions) {
          const r = await step(a);
          if (r === 'stop') return undefined;
          if (r) return r;
        }
        return undefined;

        async function step(a: DeviceAction): Promise<FailureInput | 'stop' | undefined> {
          switch (a.kind) {
            case 'wait':
              await mirror.pass(ctx, a.seconds);
              return undefined;
            case 'poll':
            case 'poll-fault': {
              const delay = a.kind === 'poll' ? mirror.delayFor(a.offset) : mirror.delayFor(0);
              await mirror.pass(ctx, delay);
              const waited = mirror.sinceLast();
              const fault = a.kind === 'poll-fault' ? a.fault : undefined;
              const expected = mirror.poll(fault);
              const over = fault === 'grant_type' ? { grant_type: 'authorization_code' } : fault === 'client_id' ? { client_id: 'no-such-client' } : fault === 'device_code' ? { device_code: '0'.repeat(40) } : {};
              const sent = await pollDevice(ctx, start.deviceCode, over);
              const actual = observed(sent);
              const broken = comparePoll(expected, actual, mirror, waited);
              if (broken) return { ...broken, expected: expectedPoll(expected), actual, exchange: sent.exchange };
              evidence.add(pollJudged(expected, actual, mirror, waited));
              return expected.ok ? 'stop' : undefined;
            }
            case 'approve':
            case 'deny':
            case 'enter-again': {
              const status = mirror.grant.status;
              if (status === 'authorized' || status === 'redeemed') return 'stop';
              submissions++;
              const model = mirror.platform.device.enterUserCode(mirror.grant.userCode);
              const decided = model.ok && a.kind !== 'enter-again' ? (a.kind === 'approve' ? mirror.platform.device.authorize(mirror.grant.userCode, USER) : mirror.platform.device.deny(mirror.grant.userCode)) : model;
              const action = a.kind === 'approve' ? 'approve-device' : a.kind === 'deny' ? 'deny-device' : 'enter-user-code';
              const r = await act(ctx, action, { user_code: start.userCode, verification_uri: start.verificationUri });
              const accepted = r['accepted'] === true;
              if (accepted !== decided.ok) {
                const requirement = !decided.ok && decided.reason === 'used' ? 'OAUTH-DEVICE-USER-CODE-SPENT' : !decided.ok ? 'OAUTH-DEVICE-USER-CODE-EXPIRY' : 'OAUTH-DEVICE-AUTHORIZED-TOKEN';
                // whether the code has expired follows from the expires_in the target advertised
                return { requirement, message: `entering the user code must be ${decided.ok ? 'accepted' : `refused (${decided.ok ? '' : decided.reason})`} (${mirror.advertised})`, expected: { accepted: decided.ok }, actual: r };
              }
              // a refusal the model also gave tested the rule of that refusal
              if (!decided.ok) evidence.add([decided.reason === 'used' ? 'OAUTH-DEVICE-USER-CODE-SPENT' : 'OAUTH-DEVICE-USER-CODE-EXPIRY']);
              return undefined;
            }
          }
        }
      },
      { runs, label: 'oauth.deviceActions' },
    );
  } finally {
    evidence.report(ctx, DEVICE_MODEL_JUDGES, 'no generated sequence reached an answer of that rule (or an earlier answer broke another rule)');
  }
}
