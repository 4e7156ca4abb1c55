import { DeviceFlow, type DeviceFlowDeps, type DeviceGrant, type PollParams, type PollResult, type StartResult } from '../../../reference/oauth/model/device-flow.js';

/**
 * The platform's device flow as the client-side cases play it: the reference state machine,
 * with the platform's answers steered at the moment a case chooses, so that long waits never
 * happen for real (spec 000, B, States and transitions):
 * - `slowDownAtPoll: n` answers slow_down (with the interval raised by 5) to the n-th poll of
 *   the first device code, whatever its timing, so the case can watch the client's next gaps;
 * - `expireAtPoll: n` makes the first device code expire at its n-th poll: the 900 seconds
 *   "pass" when the case says so, and the answer is expired_token.
 * - `expiryGraceSeconds: n` keeps codes answering as if valid n seconds past the expires_in
 *   they were handed out with, so a client that ignores expires_in and waits for
 *   expired_token keeps polling long enough to be told apart from a correct client whose
 *   last poll merely arrived late on a loaded machine.
 * Two readings are relaxed so a correct client is never provoked by the harness itself:
 * the first poll of a code is not compared with the device code request (the spec does not
 * say that request counts as a poll), and gaps get the same tolerance the judge allows.
 */
export interface DeviceScript {
  slowDownAtPoll?: number;
  expireAtPoll?: number;
  expiryGraceSeconds?: number;
}

export class HarnessDeviceFlow extends DeviceFlow {
  private readonly polls = new Map<string, number>();
  private first: string | undefined;

  constructor(
    deps: DeviceFlowDeps,
    private readonly script: DeviceScript,
    private readonly toleranceMs: number,
  ) {
    super(deps);
  }

  override start(clientId: string | undefined, scope: string | undefined): StartResult {
    const r = super.start(clientId, scope);
    if (r.ok) this.first ??= r.grant.deviceCode;
    return r;
  }

  override poll(p: PollParams): PollResult {
    const code = p.device_code;
    if (code !== undefined && this.byDeviceCode.has(code)) this.polls.set(code, this.pollCount(code) + 1);
    return super.poll(p);
  }

  /** Polls received for a device code so far. */
  pollCount(deviceCode: string): number {
    return this.polls.get(deviceCode) ?? 0;
  }

  protected override tooSoon(grant: DeviceGrant, previous: number, now: number): boolean {
    const n = this.pollCount(grant.deviceCode);
    if (n <= 1) return false;
    if (grant.deviceCode === this.first && this.script.slowDownAtPoll === n) return true;
    return now - previous < grant.interval * 1000 - this.toleranceMs;
  }

  protected override isExpired(grant: DeviceGrant, now: number): boolean {
    const at = this.script.expireAtPoll;
    if (grant.deviceCode === this.first && at !== undefined && this.pollCount(grant.deviceCode) >= at) return true;
    return super.isExpired(grant, now - (this.script.expiryGraceSeconds ?? 0) * 1000);
  }
}
