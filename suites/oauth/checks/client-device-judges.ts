import { DEVICE_GRANT_TYPE } from '../../../reference/oauth/model/limits.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { judgeBearer, judgeRevalidateUser } from './client-api-judges.js';
import { showsUserCode, type DeviceRun } from './client-device-run.js';
import { authorization, isDeviceStart, isTokenRequest, issuedToken, responseFields, timeline, toExchange } from './client-log.js';
import { PASS, fail, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import { judgeHttpMethod } from './client-method-judges.js';
import { judgeDeviceScope } from './client-scope-judges.js';
import { CLIENT_TIMING } from './client-timing.js';
import { cutTail } from '../../../src/targets/text-cut.js';

/**
 * Judges of one device-flow run (spec 000, B, Endpoints 4-5, Errors, Authentication 2), by
 * requirement ID. Polls are judged per device code, in arrival order at the platform.
 */

const TERMINAL = ['access_denied', 'expired_token'];

function polls(run: DeviceRun): ObservedRequest[] {
  return run.requests.filter(isTokenRequest);
}

function answer(e: ObservedRequest): Record<string, string> {
  return responseFields(e.response);
}

function pollsOf(run: DeviceRun, deviceCode: string): ObservedRequest[] {
  return polls(run).filter((e) => e.params['device_code'] === deviceCode);
}

/** Polls of a code up to and including its first terminal answer (later ones are POLL-STOP's). */
function livePolls(run: DeviceRun, deviceCode: string): ObservedRequest[] {
  const all = pollsOf(run, deviceCode);
  const end = all.findIndex((e) => TERMINAL.includes(answer(e)['error'] ?? ''));
  return end < 0 ? all : all.slice(0, end + 1);
}

export function judgeGrantType(run: DeviceRun): Verdict {
  const ps = polls(run);
  if (!ps.length) return unjudged(`the client never polled (${run.ended})`);
  const codes = new Set(run.issued.map((c) => c.deviceCode));
  for (const e of ps) {
    const p = e.params;
    if (p['grant_type'] !== DEVICE_GRANT_TYPE || p['client_id'] !== run.env.clientId || !codes.has(p['device_code'] ?? '')) {
      return fail('a device poll does not carry grant_type urn:ietf:params:oauth:grant-type:device_code with client_id and the issued device_code', {
        expected: { grant_type: DEVICE_GRANT_TYPE, client_id: run.env.clientId, device_code: '<an issued device code>' },
        actual: { grant_type: p['grant_type'] ?? null, client_id: p['client_id'] ?? null, device_code: codes.has(p['device_code'] ?? '') ? '<an issued device code>' : (p['device_code'] ?? null) },
        exchange: toExchange(e, run.t0),
      });
    }
  }
  return PASS;
}

export function judgeNoSecret(run: DeviceRun): Verdict {
  const sent = run.requests.filter((e) => isDeviceStart(e) || isTokenRequest(e));
  if (!sent.length) return unjudged(`the client sent no device-flow request (${run.ended})`);
  for (const e of sent) {
    const basic = authorization(e)?.scheme.toLowerCase() === 'basic';
    if (e.params['client_secret'] !== undefined || basic) {
      return fail(`the device flow sends the client secret (${basic ? 'HTTP Basic authentication' : 'client_secret parameter'} on ${e.path}); only client_id is sent`, {
        expected: 'client_id only, no client_secret',
        actual: basic ? 'Authorization: Basic …' : { client_secret: '<present>' },
        exchange: toExchange(e, run.t0),
      });
    }
  }
  return PASS;
}

export function judgeShowUserCode(run: DeviceRun): Verdict {
  if (!run.issued.length) return unjudged(`the client obtained no device code (${run.ended})`);
  for (const c of run.issued) {
    const code = showsUserCode(run.stdout, c.userCode);
    const uri = run.stdout.includes(c.verificationUri);
    if (!code || !uri) {
      return fail(`the client ${!code ? `does not show the user code ${c.userCode}` : ''}${!code && !uri ? ' and ' : ''}${!uri ? `does not ask the user to open ${c.verificationUri}` : ''} on its output`, {
        expected: { user_code: c.userCode, verification_uri: c.verificationUri },
        actual: cutTail(run.stdout, 2000) || '(no output)',
      });
    }
  }
  return PASS;
}

export function judgePollInterval(run: DeviceRun, minGapsAfterSlowDown = 0): Verdict {
  let gaps = 0;
  let gapsAfterSlowDown = 0;
  let sawSlowDown = false;
  for (const c of run.issued) {
    const ps = livePolls(run, c.deviceCode);
    let interval = c.interval;
    for (let i = 1; i < ps.length; i++) {
      const prev = ps[i - 1] as ObservedRequest;
      const cur = ps[i] as ObservedRequest;
      const a = answer(prev);
      if (a['error'] === 'slow_down') {
        interval = Number(a['interval'] ?? interval + 5);
        sawSlowDown = true;
      }
      const gap = cur.at - prev.at;
      gaps++;
      if (sawSlowDown) gapsAfterSlowDown++;
      if (gap < interval * 1000 - CLIENT_TIMING.toleranceMs) {
        return fail(`poll ${i + 1} of a device code came ${gap} ms after the previous one, faster than the interval of ${interval} s${sawSlowDown ? ' in force after slow_down' : ''}`, {
          expected: `at least ${interval * 1000} ms between polls (tolerance ${CLIENT_TIMING.toleranceMs} ms)`,
          actual: `${gap} ms`,
          exchange: timeline(ps, run.t0, 'polls of that device code'),
        });
      }
    }
  }
  if (!gaps) return unjudged(`the client polled a device code fewer than two times (${run.ended})`);
  if (gapsAfterSlowDown < minGapsAfterSlowDown) {
    return unjudged(sawSlowDown ? `only ${gapsAfterSlowDown} poll gap(s) after slow_down were seen (${run.ended})` : 'the platform never answered slow_down');
  }
  return PASS;
}

/** The first poll of a device code that came after the platform had answered it `error`. */
function pollAfterAnswer(run: DeviceRun, error: string): Verdict | undefined {
  for (const c of run.issued) {
    const all = pollsOf(run, c.deviceCode);
    const end = all.findIndex((e) => answer(e)['error'] === error);
    if (end >= 0 && end < all.length - 1) {
      const after = all[end + 1] as ObservedRequest;
      return fail(`the client polled again ${after.at - (all[end] as ObservedRequest).at} ms after the platform answered ${error}`, {
        expected: `no poll of that device code after ${error}`,
        actual: `${all.length - end - 1} more poll(s)`,
        exchange: timeline(all, run.t0, 'polls of that device code'),
      });
    }
  }
  return undefined;
}

/**
 * OAUTH-CLIENT-POLL-STOP: poll while pending, never after expired_token ("until the codes
 * expire"). `expectTerminal` (expired_token or token) is what the case steers toward; a run that
 * never got there is not judged. Polls after access_denied are OAUTH-CLIENT-POLL-STOP-DENIED's.
 */
export function judgePollStop(run: DeviceRun, expectTerminal?: string): Verdict {
  const ps = polls(run);
  if (!ps.length) return unjudged(`the client never polled (${run.ended})`);
  const afterExpiry = pollAfterAnswer(run, 'expired_token');
  if (afterExpiry) return afterExpiry;
  const last = ps[ps.length - 1] as ObservedRequest;
  const lastAnswer = answer(last)['error'];
  const gaveUp = (lastAnswer === 'authorization_pending' || lastAnswer === 'slow_down') && (run.endKind === 'exit' || run.endKind === 'quiet');
  if (gaveUp) {
    return fail(`the client stopped polling (${run.ended}) while the code was still pending and not expired`, {
      expected: 'polling until the user authorizes or the code expires',
      actual: `last answer ${lastAnswer}, then no poll`,
      exchange: timeline(ps, run.t0, 'polls'),
    });
  }
  const reached = (e: ObservedRequest): boolean => (expectTerminal === 'token' ? answer(e)['access_token'] !== undefined : answer(e)['error'] === expectTerminal);
  if (expectTerminal && !ps.some(reached)) return unjudged(`the platform never answered ${expectTerminal} (${run.unseenCodes.length ? `the user code ${run.unseenCodes.join(', ')} was not shown` : run.ended})`);
  return PASS;
}

/**
 * OAUTH-CLIENT-POLL-STOP-DENIED (STRICTER: the spec does not say it): once a poll answered
 * access_denied, that device code is not polled again.
 */
export function judgePollStopDenied(run: DeviceRun): Verdict {
  const ps = polls(run);
  if (!ps.length) return unjudged(`the client never polled (${run.ended})`);
  const after = pollAfterAnswer(run, 'access_denied');
  if (after) return after;
  if (!ps.some((e) => answer(e)['error'] === 'access_denied')) return unjudged(`the platform never answered access_denied (${run.unseenCodes.length ? `the user code ${run.unseenCodes.join(', ')} was not shown` : run.ended})`);
  return PASS;
}

/**
 * OAUTH-CLIENT-POLL-AFTER-TOKEN: polling ends when the user authorizes (B, Endpoints 5): once a
 * poll returned an access token, that device code is not polled again.
 */
export function judgePollAfterToken(run: DeviceRun): Verdict {
  let tokens = 0;
  for (const c of run.issued) {
    const all = pollsOf(run, c.deviceCode);
    const at = all.findIndex((e) => issuedToken(e) !== undefined);
    if (at < 0) continue;
    tokens++;
    if (at < all.length - 1) {
      const after = all[at + 1] as ObservedRequest;
      return fail(`the client polled the device code again ${after.at - (all[at] as ObservedRequest).at} ms after the poll that returned its access token`, {
        expected: 'no poll of that device code after the token',
        actual: `${all.length - at - 1} more poll(s)`,
        exchange: timeline(all, run.t0, 'polls of that device code'),
      });
    }
  }
  if (!tokens) return unjudged(`no poll returned a token (${run.unseenCodes.length ? `the user code ${run.unseenCodes.join(', ')} was not shown` : run.ended})`);
  return PASS;
}

/**
 * OAUTH-CLIENT-POLL-EXPIRES-IN: polling ends when the codes expire (B, Endpoints 5): no poll of
 * a device code arrives later than its expires_in after the platform issued it (with the
 * expiry tolerance: the client counts from when it read the answer). Judged only when some
 * code nobody authorized or cancelled reached its expiry while the run was watched.
 */
export function judgePollExpiresIn(run: DeviceRun): Verdict {
  let reached = false;
  for (const c of run.issued) {
    if (!Number.isFinite(c.expiresIn)) continue;
    const deadline = c.entry.at + c.expiresIn * 1000;
    const all = pollsOf(run, c.deviceCode);
    const late = all.find((e) => e.at > deadline + CLIENT_TIMING.expiryToleranceMs);
    if (late) {
      return fail(`the client polled a device code ${late.at - deadline} ms after its expires_in of ${c.expiresIn} s had passed`, {
        expected: `no poll later than ${c.expiresIn} s after the device code was issued (tolerance ${CLIENT_TIMING.expiryToleranceMs} ms)`,
        actual: `a poll at +${late.at - c.entry.at} ms`,
        exchange: timeline(all, run.t0, 'polls of that device code'),
      });
    }
    const settled = all.some((e) => issuedToken(e) !== undefined || answer(e)['error'] === 'access_denied');
    if (!settled && run.endedAt > deadline) reached = true;
  }
  if (!reached) return unjudged(`no pending device code reached its expires_in while the run was watched (${run.ended})`);
  return PASS;
}

/** OAUTH-CLIENT-DEVICE-RESTART: after expired_token, end the flow or request a new device code. */
export function judgeDeviceRestart(run: DeviceRun): Verdict {
  const expired = polls(run).find((e) => answer(e)['error'] === 'expired_token');
  if (!expired) return unjudged(`the platform never answered expired_token (${run.ended})`);
  const restart = run.requests.find((e) => isDeviceStart(e) && e.seq > expired.seq);
  if (!restart) {
    if (!run.stopped) return PASS;
    return fail('after expired_token the client neither ended the flow nor requested a new device code', {
      expected: 'exit, or POST /login/device/code for a new code',
      actual: `still running ${run.ended}; ${polls(run).filter((e) => e.seq > expired.seq).length} more poll(s) of the expired code`,
      exchange: timeline(run.requests, run.t0, 'device-flow requests'),
    });
  }
  const fresh = run.issued.find((c) => c.entry.seq === restart.seq)?.deviceCode;
  const stale = polls(run).find((e) => e.seq > restart.seq && e.params['device_code'] !== fresh && e.params['device_code'] !== expired.params['device_code']);
  if (stale) return fail('after requesting a new device code the client polled with another one', { expected: fresh, actual: stale.params['device_code'] ?? null, exchange: toExchange(stale, run.t0) });
  return PASS;
}

/** What the device-flow judges read of a case's arguments (the rest steers the run). */
export interface DeviceJudgeArgs {
  /** The answer the case steers toward (expired_token, token): POLL-STOP is not judged on a run that never got it. */
  expect?: string;
  /** POLL-INTERVAL needs this many gaps after slow_down to be judged. */
  minGapsAfterSlowDown?: number;
}

/** Judges of a device-flow run, by requirement. */
export const DEVICE_JUDGES: Readonly<Record<string, Judge<DeviceRun, DeviceJudgeArgs>>> = {
  'OAUTH-CLIENT-DEVICE-GRANT-TYPE': judgeGrantType,
  'OAUTH-CLIENT-DEVICE-NO-SECRET': judgeNoSecret,
  'OAUTH-CLIENT-SHOW-USER-CODE': judgeShowUserCode,
  'OAUTH-CLIENT-POLL-INTERVAL': (run, args) => judgePollInterval(run, args.minGapsAfterSlowDown ?? 0),
  'OAUTH-CLIENT-POLL-STOP': (run, args) => judgePollStop(run, args.expect),
  'OAUTH-CLIENT-POLL-STOP-DENIED': judgePollStopDenied,
  'OAUTH-CLIENT-POLL-AFTER-TOKEN': judgePollAfterToken,
  'OAUTH-CLIENT-POLL-EXPIRES-IN': judgePollExpiresIn,
  'OAUTH-CLIENT-HTTP-METHOD': judgeHttpMethod,
  'OAUTH-CLIENT-DEVICE-RESTART': judgeDeviceRestart,
  'OAUTH-CLIENT-REVALIDATE-USER': judgeRevalidateUser,
  'OAUTH-CLIENT-BEARER': judgeBearer,
  'OAUTH-CLIENT-SCOPE-SPACES': judgeDeviceScope,
};
