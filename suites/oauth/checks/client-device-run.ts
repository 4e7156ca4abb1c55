import type { CheckContext } from '../../../src/engine/suite-module.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { clientEnvVars, type ClientEnv } from '../../../reference/oauth/client/contract.js';
import { describeExit, type ClientExit } from '../../../src/targets/client-process/client-process.js';
import { finishClient, withClientHarness, type ClientHarness } from '../../../src/targets/client-process/harness.js';
import { CLIENT_APP } from './client-command.js';
import type { DeviceScript } from './client-device-flow.js';
import { isClientEndpoint, isDeviceStart, isTokenRequest, issuedToken, responseFields, timeline } from './client-log.js';
import { startClientPlatform } from './client-platform.js';
import { CLIENT_TIMING, settleAfterTerminalMs, watchAfterTerminalMs } from './client-timing.js';

/**
 * One device flow with the client under test (spec 000, B, Endpoints 4-5), the harness playing
 * the platform and the person who reads the user code off the client's output and enters it.
 * The run ends when the client exits, when it has been quiet too long, when a terminal answer
 * has been watched long enough, or when the case's budget is spent; the client is then stopped.
 */
export interface DeviceRunOptions {
  /** `interval` handed out with device codes (seconds). */
  interval: number;
  script?: DeviceScript;
  /** The person approves or cancels each device code once the client has polled it this often (not a code the script expires). */
  user?: { action: 'approve' | 'deny'; afterPolls: number };
  /** Upper bound on the whole run (ms). */
  budgetMs: number;
  /** SPECGATE_SCOPE (default: two scopes). */
  scope?: string;
  /** `expires_in` handed out with device codes (seconds); the platform expires them then, on the real clock. */
  expiresIn?: number;
}

export interface IssuedCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  interval: number;
  /** Seconds the answer gave the code (NaN when it named none). */
  expiresIn: number;
  entry: ObservedRequest;
}

export interface DeviceRun {
  env: ClientEnv;
  t0: number;
  /** The client's own requests: device code, token endpoint, API, whatever their method. */
  requests: ObservedRequest[];
  issued: IssuedCode[];
  /** What the person did, per device code. */
  actions: { deviceCode: string; action: string; outcome: string }[];
  /** User codes the person looked for in the output and did not find. */
  unseenCodes: string[];
  exit: ClientExit | undefined;
  stopped: boolean;
  /** When the run ended, on the platform's clock (the client was stopped or had exited). */
  endedAt: number;
  /** Why the run ended, in words. */
  ended: string;
  /** exit: the client ended; quiet: it sent nothing for long; watched: the watch after the last answer is over; budget: time is up. */
  endKind: 'exit' | 'quiet' | 'watched' | 'budget' | 'aborted';
  stdout: string;
  stderr: string;
}

/** Whether the output shows a user code the way a person could type it (hyphen optional). */
export function showsUserCode(stdout: string, userCode: string): boolean {
  const bare = (s: string): string => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  const target = bare(userCode);
  return target !== '' && stdout.split(/[^A-Za-z0-9-]+/).some((word) => bare(word) === target);
}

export function issuedCodes(requests: readonly ObservedRequest[]): IssuedCode[] {
  return requests.filter((e) => isDeviceStart(e) && e.status === 200).map((entry) => {
    const f = responseFields(entry.response);
    return { deviceCode: f['device_code'] ?? '', userCode: f['user_code'] ?? '', verificationUri: f['verification_uri'] ?? '', interval: Number(f['interval'] ?? 0), expiresIn: Number(f['expires_in'] ?? Number.NaN), entry };
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the flow inside the client-process harness: the platform and the client are stopped when the run ends. */
export function runDeviceFlow(ctx: CheckContext, command: unknown, opts: DeviceRunOptions): Promise<DeviceRun> {
  return withClientHarness(ctx.signal, (harness) => playDeviceFlow(ctx, harness, command, opts));
}

async function playDeviceFlow(ctx: CheckContext, harness: ClientHarness, command: unknown, opts: DeviceRunOptions): Promise<DeviceRun> {
  const platform = await startClientPlatform(
    { flow: 'device', interval: opts.interval, script: opts.script ?? {}, toleranceMs: CLIENT_TIMING.toleranceMs, seed: ctx.seed, ...(opts.scope !== undefined ? { scope: opts.scope } : {}), ...(opts.expiresIn !== undefined ? { expiresIn: opts.expiresIn } : {}) },
    harness,
  );
  const t0 = harness.clock.now();
  const client = harness.launch(command, clientEnvVars(platform.env), CLIENT_APP);
  const run: DeviceRun = { env: platform.env, t0, requests: [], issued: [], actions: [], unseenCodes: [], exit: undefined, stopped: false, endedAt: t0, ended: '', endKind: 'aborted', stdout: '', stderr: '' };
  const mine = (): ObservedRequest[] => platform.log.since(0).filter(isClientEndpoint);
  const acting: Promise<void>[] = [];
  const scripted = opts.script?.expireAtPoll !== undefined;

  const act = async (issued: IssuedCode, action: 'approve' | 'deny'): Promise<void> => {
    const seen = await client.waitForOutput((out) => (showsUserCode(out, issued.userCode) ? true : undefined), CLIENT_TIMING.readCodeMs);
    if (!seen) {
      run.unseenCodes.push(issued.userCode);
      return;
    }
    const r = await platform.user.perform(action === 'approve' ? 'approve-device' : 'deny-device', { user_code: issued.userCode, verification_uri: issued.verificationUri });
    run.actions.push({ deviceCode: issued.deviceCode, action, outcome: r.outcome });
  };

  // The person acts right after the poll that makes the count, before the client's next poll.
  const unsubscribe = platform.log.subscribe((e) => {
    const user = opts.user;
    if (!user || !isTokenRequest(e)) return;
    const code = e.params['device_code'] ?? '';
    const issued = issuedCodes(mine()).find((c) => c.deviceCode === code);
    if (!issued || platform.device.pollCount(code) !== user.afterPolls) return;
    if (scripted && issued.deviceCode === issuedCodes(mine())[0]?.deviceCode) return;
    // the person acts before the client's next poll: its sleep on the clock hook waits for this
    acting.push(harness.clock.hold(act(issued, user.action)));
  });
  try {
    let lastSeen = 0;
    let lastAt = t0;
    let settleBy: number | undefined;
    for (;;) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (client.exit()) {
        run.ended = `the client ended (${describeExit(client.exit())})`;
        run.endKind = 'exit';
        break;
      }
      const now = harness.clock.now();
      const all = mine();
      const fresh = all.filter((e) => e.seq > lastSeen);
      for (const e of fresh) {
        lastSeen = e.seq;
        lastAt = e.at;
        const answer = responseFields(e.response)['error'];
        if (issuedToken(e)) settleBy = now + CLIENT_TIMING.finishMs;
        else if (answer === 'access_denied' || answer === 'expired_token') settleBy = now + settleAfterTerminalMs(currentInterval(all, opts.interval));
        else if (isDeviceStart(e) && settleBy !== undefined) settleBy = undefined;
      }
      const quietMs = watchAfterTerminalMs(currentInterval(all, opts.interval)) + 5000;
      if (settleBy !== undefined && now >= settleBy) {
        run.ended = 'the watch after the last answer is over';
        run.endKind = 'watched';
        break;
      }
      if (settleBy === undefined && now - lastAt > quietMs) {
        run.ended = `the client sent nothing for ${Math.round(quietMs / 1000)} s`;
        run.endKind = 'quiet';
        break;
      }
      if (now - t0 > opts.budgetMs) {
        run.ended = `the case's budget of ${opts.budgetMs / 1000} s is spent`;
        run.endKind = 'budget';
        break;
      }
      await sleep(50);
    }
  } finally {
    unsubscribe();
    await Promise.allSettled(acting);
    const finished = await finishClient(client);
    run.endedAt = harness.clock.now();
    Object.assign(run, { exit: finished.exit, stopped: finished.stopped, stdout: finished.stdout, stderr: finished.stderr });
    run.requests = mine();
    run.issued = issuedCodes(run.requests);
    ctx.exchange(timeline(run.requests, t0, `platform log of the device flow (${run.ended || 'interrupted'})`));
    ctx.exchange(finished.exchange);
  }
  return run;
}

/** The interval in force after the last answer: the issued one, raised by slow_down answers. */
function currentInterval(requests: readonly ObservedRequest[], fallback: number): number {
  let interval = fallback;
  for (const e of requests) {
    const f = responseFields(e.response);
    if (isDeviceStart(e) && f['interval']) interval = Number(f['interval']);
    if (f['error'] === 'slow_down' && f['interval']) interval = Number(f['interval']);
  }
  return interval;
}
