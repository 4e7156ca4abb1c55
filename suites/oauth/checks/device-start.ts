import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { startDevice } from './support.js';

/**
 * Starts a device authorization for the device-flow application and sets the case variables
 * `device_code`, `user_code`, `interval` and `expires_in` for the steps that follow. When the
 * target leaves `interval` out (its own requirement, OAUTH-DEVICE-INTERVAL, fails elsewhere),
 * 5 seconds are used, the default of RFC 8628 section 3.2, so the rest of the flow can still be
 * judged; a missing `expires_in` likewise becomes the spec's default of 900 (spec 000, B,
 * Resources). Args: `scope` (optional).
 */
export const deviceStart: TypedCheck = async (ctx, args) => {
  const s = await startDevice(ctx, typeof args['scope'] === 'string' ? args['scope'] : '');
  ctx.vars['device_code'] = s.deviceCode;
  ctx.vars['user_code'] = s.userCode;
  ctx.vars['interval'] = Number.isFinite(s.interval) ? s.interval : 5;
  ctx.vars['expires_in'] = Number.isFinite(s.expiresIn) ? s.expiresIn : 900;
};
