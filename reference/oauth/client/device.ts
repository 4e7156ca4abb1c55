import type { ClientBehaviour } from './behaviour.js';
import { CLIENT_EXIT, scopeList, type ClientEnv } from './contract.js';
import { now, sendForm, seconds, sleep, text } from './http.js';
import { finishWithToken, type ClientIo } from './session.js';

/** Interval to assume when the platform names none (the platform's own default). */
const DEFAULT_INTERVAL = 5;

type Outcome = { kind: 'token'; token: string } | { kind: 'restart' } | { kind: 'exit'; status: number };

/**
 * The device flow as a headless application runs it (spec 000, B, Endpoints 4-5, Errors):
 * request a device code, show user_code and the page to open, poll no faster than `interval`
 * (raised after slow_down), stop on access_denied, and after expired_token request a new
 * device code. The first poll also waits `interval`: the spec leaves open whether the device
 * code request counts as the previous request, and waiting is right under both readings.
 */
export async function runDeviceFlow(env: ClientEnv, b: ClientBehaviour, io: ClientIo): Promise<number> {
  for (let restartsLeft = b.restarts; ; restartsLeft--) {
    const outcome = await oneDeviceCode(env, b, io, restartsLeft);
    if (outcome.kind === 'token') return finishWithToken(env, b, outcome.token, io);
    if (outcome.kind === 'exit') return outcome.status;
    io.say('The code expired; requesting a new one.');
  }
}

async function oneDeviceCode(env: ClientEnv, b: ClientBehaviour, io: ClientIo, restartsLeft: number): Promise<Outcome> {
  const start = await sendForm(b.httpMethod('device-code'), `${env.authUrl}/login/device/code`, b.deviceCodeParams({ clientId: env.clientId, clientSecret: env.clientSecret, scope: b.scopeParam(scopeList(env)) }));
  const deviceCode = text(start.fields['device_code']);
  const userCode = text(start.fields['user_code']);
  const verificationUri = text(start.fields['verification_uri']) ?? `${env.authUrl}/login/device`;
  if (start.status !== 200 || !deviceCode || !userCode) {
    io.warn(`The platform refused to start the device flow (HTTP ${start.status}${start.fields['error'] ? `, ${text(start.fields['error'])}` : ''}).`);
    return { kind: 'exit', status: CLIENT_EXIT.platform };
  }
  for (const line of b.userCodeLines(userCode, verificationUri)) io.say(line);
  let interval = seconds(start.fields['interval']) ?? DEFAULT_INTERVAL;
  const expiresAt = (await now()) + (seconds(start.fields['expires_in']) ?? 900) * 1000;
  let pending = 0;
  const terminal = async (error: 'access_denied' | 'expired_token'): Promise<Outcome | undefined> => {
    const step = await b.afterTerminal(error, restartsLeft);
    if (step === 'poll-again') return undefined;
    if (step === 'restart') return { kind: 'restart' };
    io.warn(error === 'access_denied' ? 'Authorization was cancelled.' : 'The code expired before it was entered.');
    return { kind: 'exit', status: CLIENT_EXIT.aborted };
  };
  for (;;) {
    await sleep(b.pollDelay(interval));
    if (b.honoursExpiresIn && (await now()) >= expiresAt) {
      const next = await terminal('expired_token');
      if (next) return next;
    }
    const send = () => sendForm(b.httpMethod('poll'), `${env.authUrl}/login/oauth/access_token`, b.pollParams({ clientId: env.clientId, clientSecret: env.clientSecret, deviceCode }));
    const poll = await send();
    const token = text(poll.fields['access_token']);
    if (poll.status === 200 && token) {
      // polls that follow a token (none in the spec behaviour: pollsAfterToken is 0)
      for (let extra = 0; extra < b.pollsAfterToken; extra++) {
        await sleep(b.pollDelay(interval));
        await send();
      }
      return { kind: 'token', token };
    }
    const error = text(poll.fields['error']);
    if (error === 'authorization_pending') {
      if (++pending >= b.maxPending) {
        io.warn('Gave up waiting for authorization.');
        return { kind: 'exit', status: CLIENT_EXIT.aborted };
      }
    } else if (error === 'slow_down') {
      interval = b.afterSlowDown(interval, seconds(poll.fields['interval']));
    } else if (error === 'access_denied' || error === 'expired_token') {
      const next = await terminal(error);
      if (next) return next;
    } else {
      io.warn(`The platform answered the poll with ${error ?? `HTTP ${poll.status}`}.`);
      return { kind: 'exit', status: CLIENT_EXIT.platform };
    }
  }
}
