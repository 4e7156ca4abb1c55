import { defineCheck } from '../../../src/engine/checks/contract.js';
import { startDevice } from './support.js';

/**
 * Starts a device authorization for the device-flow application and sets the case variables
 * `device_code`, `user_code`, `verification_uri` (the page the user agent opens to enter the
 * code; empty when the answer left it out), `interval` and `expires_in` for the steps that follow. When the
 * target leaves `interval` out (its own requirement, OAUTH-DEVICE-INTERVAL, fails elsewhere),
 * 5 seconds are used, the default of RFC 8628 section 3.2, so the rest of the flow can still be
 * judged; a missing `expires_in` likewise becomes the spec's default of 900 (spec 000, B,
 * Resources). It judges nothing itself: without a device code the case cannot go on (errored).
 */
export const deviceStart = defineCheck<{ scope?: string }>({
  description: 'starts a device authorization and sets device_code, user_code, verification_uri, interval and expires_in',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { scope: { type: 'string', description: 'scopes to ask for (space-separated)' } },
  },
  judges: [],
  sets: ['device_code', 'user_code', 'verification_uri', 'interval', 'expires_in'],
  async run(ctx, args) {
    const s = await startDevice(ctx, args.scope ?? '');
    ctx.vars['device_code'] = s.deviceCode;
    ctx.vars['user_code'] = s.userCode;
    ctx.vars['verification_uri'] = s.verificationUri;
    ctx.vars['interval'] = Number.isFinite(s.interval) ? s.interval : 5;
    ctx.vars['expires_in'] = Number.isFinite(s.expiresIn) ? s.expiresIn : 900;
  },
});
