import { describe, expect, it } from 'vitest';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { comparePoll, DeviceMirror } from '../../../suites/oauth/checks/device-mirror.js';
import { advertisedTiming, startDevice, undecodedAnswer } from '../../../suites/oauth/checks/support.js';

/** A check context whose every request gets `bodyText` with `contentType`. */
/** What `ctx.blocked` was called with, thrown as the engine does, to be caught by the test. */
class Blocked extends Error {
  constructor(readonly requirement: string, readonly reason: string) {
    super(`blocked by ${requirement}: ${reason}`);
  }
}

function answering(contentType: string, bodyText: string, body: unknown): CheckContext {
  return {
    caseId: 'probe',
    vars: { auth_url: 'http://platform.test', device_client_id: 'dev' },
    signal: new AbortController().signal,
    blocked: (requirement: string, reason: string): never => {
      throw new Blocked(requirement, reason);
    },
    request: async (spec: HttpRequestSpec): Promise<CheckResponse> => ({
      status: 200,
      headers: { 'content-type': contentType },
      body,
      bodyText,
      bodyBytes: Buffer.from(bodyText),
      durationMs: 1,
      exchange: { kind: 'http', summary: `${spec.method ?? ''} ${spec.url ?? ''} -> 200` },
    }),
  } as unknown as CheckContext;
}

const device = (fields: Record<string, unknown>): CheckContext => answering('application/json', JSON.stringify(fields), fields);

describe('device-flow judgements name the timing the target advertised', () => {
  it('says which advertised value differs from the spec\'s default, and which were left out', () => {
    expect(advertisedTiming({ advertised: { expires_in: 600, interval: 5 } })).toBe("the target advertised expires_in=600 and interval=5; the spec's default expires_in is 900");
    expect(advertisedTiming({ advertised: { expires_in: '900', interval: undefined } })).toBe('the target advertised expires_in=900; the target left out interval (so 5 was used)');
    expect(advertisedTiming({ advertised: { expires_in: 900, interval: 5 } })).toBe('the target advertised expires_in=900 and interval=5');
  });

  it('appends it to a poll answer that disagrees with the model timed by those values', async () => {
    const start = await startDevice(device({ device_code: 'd'.repeat(40), user_code: 'ABCD-EFGH', expires_in: 600, interval: 5 }));
    const mirror = new DeviceMirror(start);
    const broken = comparePoll({ ok: false, error: 'authorization_pending', description: 'pending' }, { error: 'expired_token', token: false, interval: null }, mirror, 5);
    expect(broken).toEqual({
      requirement: 'OAUTH-DEVICE-EXPIRED-TOKEN',
      message: "the device code expired before its expires_in had passed (the target advertised expires_in=600 and interval=5; the spec's default expires_in is 900)",
    });
    expect(comparePoll({ ok: false, error: 'authorization_pending', description: 'pending' }, { error: 'authorization_pending', token: false, interval: null }, mirror, 5)).toBeUndefined();
  });
});

describe('an answer that does not decode', () => {
  it('leads the reason of a device authorization without a device code, which blocks the case by the JSON answer\'s rule', async () => {
    const err: unknown = await startDevice(answering('text/html', '<html><body>Maintenance</body></html>', undefined)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Blocked);
    expect(err).toMatchObject({ requirement: 'OAUTH-DEVICE-FORMAT-JSON', reason: expect.stringMatching(/^the body is not JSON: .+ \(it came with Content-Type text\/html; first bytes: "<html><body>Maintenance<\/body><\/html>"\): the device authorization request got no device_code \(HTTP 200\)/) });
  });

  it('blocks the case by the interval rule when the interval cannot time a poll', async () => {
    const err: unknown = await startDevice(device({ device_code: 'd', user_code: 'ABCD-EFGH', verification_uri: 'http://platform.test/login/device', expires_in: 900, interval: 'soon' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ requirement: 'OAUTH-DEVICE-INTERVAL', reason: expect.stringMatching(/^the device authorization answered interval "soon" \(HTTP 200\), not a number of seconds/) });
  });

  it('is named for a body only when it did not decode', () => {
    expect(undecodedAnswer({ headers: { 'content-type': 'application/json' }, body: { a: 1 }, bodyText: '{"a":1}' }, 'json')).toBeUndefined();
    expect(undecodedAnswer({ headers: {}, body: undefined, bodyText: '' }, 'json')).toBeUndefined();
    expect(undecodedAnswer({ headers: { 'content-type': 'application/json' }, body: undefined, bodyText: '{' }, 'json')).toMatch(/^the body is not JSON: /);
  });
});
