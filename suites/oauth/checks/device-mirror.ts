import type { CheckContext } from '../../../src/engine/suite-module.js';
import { VirtualClock } from '../../../src/engine/clock.js';
import { SpecgateError } from '../../../src/errors.js';
import { DEVICE_GRANT_TYPE } from '../../../reference/oauth/model/limits.js';
import { Platform } from '../../../reference/oauth/model/platform.js';
import type { DeviceGrant, PollResult } from '../../../reference/oauth/model/device-flow.js';
import { advertisedTiming, str, wait, type DeviceStart, type Sent } from './support.js';

/**
 * The model's device flow running beside a target's (spec 000, B, States and transitions):
 * one model grant aligned with the target's interval and expires_in, on a private virtual
 * clock that moves whenever the target's clock is moved.
 */
export class DeviceMirror {
  readonly clock = new VirtualClock();
  readonly platform = new Platform({ clock: this.clock });
  readonly grant: DeviceGrant;
  readonly initialInterval: number;
  /** What the target advertised of the timing the mirror follows, for failure messages. */
  readonly advertised: string;
  private readonly clientId: string;
  polls = 0;

  constructor(start: DeviceStart) {
    const app = this.platform.directory.apps.find((a) => a.deviceFlowEnabled);
    // The model's seeded directory always has one; anything else is a bug in the model.
    if (!app) throw new SpecgateError('SG_INTERNAL', 'the oauth model has no device-flow application to mirror the target with');
    this.clientId = app.clientId;
    const s = this.platform.device.start(app.clientId, '');
    if (!s.ok) throw new SpecgateError('SG_INTERNAL', `the oauth model refused its own device authorization: ${s.description}`);
    this.grant = s.grant;
    this.grant.interval = start.interval;
    this.grant.expiresAt = this.grant.issuedAt + start.expiresIn * 1000;
    this.initialInterval = start.interval;
    this.advertised = advertisedTiming(start);
  }

  /** Seconds since the previous request about this device code. */
  sinceLast(): number {
    return (this.clock.now() - this.grant.lastRequestAt) / 1000;
  }

  async pass(ctx: CheckContext, seconds: number): Promise<void> {
    if (seconds <= 0) return;
    await wait(ctx, seconds);
    await this.clock.advance(seconds * 1000);
  }

  /** Seconds to wait so the next poll lands `offset` seconds off the interval in force. */
  delayFor(offset: number): number {
    // Whether the device code request itself counts as the "previous request" is not
    // spelled out, so the first poll never comes early.
    const o = this.polls === 0 ? Math.max(0, offset) : offset;
    return Math.max(0, this.grant.interval + o - this.sinceLast());
  }

  /** The model's answer to a poll (with the same parameter fault as the target's). */
  poll(fault?: 'grant_type' | 'client_id' | 'device_code'): PollResult {
    this.polls++;
    return this.platform.device.poll({
      client_id: fault === 'client_id' ? 'no-such-client' : this.clientId,
      device_code: fault === 'device_code' ? '0'.repeat(40) : this.grant.deviceCode,
      grant_type: fault === 'grant_type' ? 'authorization_code' : DEVICE_GRANT_TYPE,
    });
  }
}

/** What a target's poll answered, in the model's terms. */
export function observed(sent: Sent): { error: string | null; token: boolean; interval: number | null } {
  const f = sent.fields;
  const interval = f['interval'] === undefined ? null : Number(str(f['interval']));
  return { error: f['error'] === undefined ? null : str(f['error']), token: str(f['access_token']) !== '', interval: Number.isFinite(interval) ? interval : null };
}

/** What the model answered, as a failure shows it. */
export function expectedPoll(expected: PollResult): Record<string, unknown> {
  if (expected.ok) return { access_token: '(present)' };
  return { error: expected.error, ...(expected.interval !== undefined ? { interval: expected.interval } : {}) };
}

const BY_ERROR: Record<string, string> = {
  authorization_pending: 'OAUTH-DEVICE-PENDING',
  access_denied: 'OAUTH-DEVICE-ACCESS-DENIED',
  expired_token: 'OAUTH-DEVICE-EXPIRED-TOKEN',
  unsupported_grant_type: 'OAUTH-DEVICE-UNSUPPORTED-GRANT-TYPE',
  incorrect_client_credentials: 'OAUTH-DEVICE-INCORRECT-CLIENT',
  incorrect_device_code: 'OAUTH-DEVICE-INCORRECT-DEVICE-CODE',
  device_flow_disabled: 'OAUTH-DEVICE-ENABLED',
};

/**
 * Compares a target's poll answer with the model's; returns the broken requirement and a
 * message, or undefined when they agree. `waited` is the seconds since the previous request.
 * The model is timed by the interval and expires_in the target advertised, which the message
 * names: an answer that disagrees may follow from them rather than from the rule.
 */
export function comparePoll(expected: PollResult, actual: ReturnType<typeof observed>, mirror: DeviceMirror, waited: number): { requirement: string; message: string } | undefined {
  const broken = disagreement(expected, actual, mirror, waited);
  return broken && { ...broken, message: `${broken.message} (${mirror.advertised})` };
}

function disagreement(expected: PollResult, actual: ReturnType<typeof observed>, mirror: DeviceMirror, waited: number): { requirement: string; message: string } | undefined {
  if (expected.ok) {
    return actual.token ? undefined : { requirement: 'OAUTH-DEVICE-AUTHORIZED-TOKEN', message: 'the user authorized the device, so the poll must return an access token' };
  }
  const e = expected.error;
  if (e === 'slow_down') {
    if (actual.error !== 'slow_down') {
      return slowDownRule(mirror, waited) === 'OAUTH-DEVICE-INTERVAL-RAISED'
        ? { requirement: 'OAUTH-DEVICE-INTERVAL-RAISED', message: `a poll ${waited}s after the previous request is sooner than the raised interval ${mirror.grant.interval - 5}s and must get slow_down` }
        : { requirement: 'OAUTH-DEVICE-SLOW-DOWN', message: `a poll ${waited}s after the previous request is sooner than the interval and must get slow_down` };
    }
    if (actual.interval !== expected.interval) {
      return { requirement: 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL', message: `slow_down must carry the interval raised by 5 seconds (${String(expected.interval)})` };
    }
    return undefined;
  }
  if (actual.error === e) return undefined;
  if (e === 'authorization_pending' && actual.error === 'expired_token') {
    return { requirement: 'OAUTH-DEVICE-EXPIRED-TOKEN', message: 'the device code expired before its expires_in had passed' };
  }
  return { requirement: BY_ERROR[e] ?? 'OAUTH-DEVICE-PENDING', message: `the poll must answer ${e}` };
}

/**
 * Which rule a too-early poll tests (read after the model answered it): the raised interval's,
 * once a slow_down raised it or the poll came after the first interval; else slow_down's own.
 */
function slowDownRule(mirror: DeviceMirror, waited: number): string {
  return mirror.grant.interval - 5 > mirror.initialInterval || waited >= mirror.initialInterval ? 'OAUTH-DEVICE-INTERVAL-RAISED' : 'OAUTH-DEVICE-SLOW-DOWN';
}

/**
 * The rules one poll answer compared with the model judged: the rule of the answer the model
 * gave (a slow_down answer judges its interval too). A schedule that never polls too early
 * judges nothing of slow_down, so it must not count as evidence for it.
 */
export function pollJudged(expected: PollResult, actual: ReturnType<typeof observed>, mirror: DeviceMirror, waited: number): string[] {
  if (expected.ok) return ['OAUTH-DEVICE-AUTHORIZED-TOKEN'];
  if (expected.error === 'slow_down') return [slowDownRule(mirror, waited), ...(actual.error === 'slow_down' ? ['OAUTH-DEVICE-SLOW-DOWN-INTERVAL'] : [])];
  return [BY_ERROR[expected.error] ?? 'OAUTH-DEVICE-PENDING'];
}

/**
 * The evidence of poll answers compared with the model: each rule counts the answers that
 * tested it, and a rule of the check that none tested is reported with nothing to judge (never
 * counted as judged because the check ran).
 */
export class PollEvidence {
  private readonly seen = new Map<string, number>();

  add(ids: readonly string[]): void {
    for (const id of ids) this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
  }

  /** Reports what was seen, for the rules among `judges` the case judges. */
  report(ctx: CheckContext, judges: readonly string[], why: string): void {
    for (const id of judges) {
      if (!ctx.requirements.includes(id)) continue;
      const n = this.seen.get(id) ?? 0;
      if (n > 0) ctx.observed(id, n);
      else ctx.noEvidence(id, why);
    }
  }
}
