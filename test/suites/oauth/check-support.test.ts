import { describe, expect, it } from 'vitest';
import type { HttpRequestSpec } from '../../../src/engine/model.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { act, postForm, startDevice } from '../../../suites/oauth/checks/support.js';

/** A check context that answers every request with `answer` and keeps what was sent. */
function fakeContext(vars: Record<string, unknown>, answer: (spec: HttpRequestSpec) => { status: number; body: unknown }) {
  const sent: HttpRequestSpec[] = [];
  const notes: string[] = [];
  const ctx = {
    caseId: 'probe',
    vars,
    agent: undefined,
    signal: new AbortController().signal,
    request: async (spec: HttpRequestSpec): Promise<CheckResponse> => {
      sent.push(spec);
      const { status, body } = answer(spec);
      const bodyText = JSON.stringify(body);
      return { status, headers: {}, body, bodyText, bodyBytes: Buffer.from(bodyText), durationMs: 1, exchange: { kind: 'http', summary: `${spec.method ?? ''} ${spec.url ?? ''} -> ${status}` } };
    },
    exchange: (ex: { summary: string }) => void notes.push(ex.summary),
    blocked: (requirement: string, reason: string): never => {
      throw new SpecgateError('SG_TARGET_PROTOCOL', `blocked by ${requirement}: ${reason}`);
    },
  } as unknown as CheckContext;
  return { ctx, sent, notes };
}

describe('oauth check plumbing', () => {
  it('sends forms through the engine, leaving out parameters the case does not send', async () => {
    const { ctx, sent } = fakeContext({}, () => ({ status: 200, body: { OAuth: { access_token: 't' } } }));
    const r = await postForm(ctx, 'http://platform.test/login/oauth/access_token', { client_id: 'a', code_verifier: null, scope: undefined, code: 'c' });
    expect(sent).toEqual([{ method: 'POST', url: 'http://platform.test/login/oauth/access_token', form: { client_id: 'a', code: 'c' }, accept: 'json' }]);
    // an XML answer's element OAuth is read like a JSON object
    expect(r.fields).toEqual({ access_token: 't' });
    expect(r.exchange.summary).toContain('-> 200');
  });

  it('asks the user-agent bridge through the engine and notes the action', async () => {
    const { ctx, sent, notes } = fakeContext({ agent_bridge_url: 'http://platform.test/__specgate/agent' }, () => ({ status: 200, body: { outcome: 'redirected', code: 'x' } }));
    const r = await act(ctx, 'approve', { query: { client_id: 'a' } });
    expect(r).toEqual({ outcome: 'redirected', code: 'x' });
    expect(sent).toEqual([{ method: 'POST', url: 'http://platform.test/__specgate/agent/approve', json: { query: { client_id: 'a' } }, accept: 'json' }]);
    expect(notes).toEqual(['user agent: approve']);
  });

  it('names a missing variable, a missing agent and an unusable answer with their codes', async () => {
    const { ctx } = fakeContext({ auth_url: 'http://platform.test' }, () => ({ status: 400, body: { error: 'nope' } }));
    await expect(startDevice(ctx)).rejects.toMatchObject({ code: 'SG_CONFIG', message: expect.stringContaining('set vars.device_client_id in the target profile') });
    await expect(act(ctx, 'approve', {})).rejects.toMatchObject({ code: 'SG_CONFIG', message: expect.stringContaining('add agent:') });
    const withApp = fakeContext({ auth_url: 'http://platform.test', device_client_id: 'd' }, () => ({ status: 400, body: { error: 'nope' } }));
    const err: unknown = await startDevice(withApp.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecgateError);
    // the check blocks the case by the rule of the answer it asked for (the stand-in throws what it is told)
    expect(err).toMatchObject({ code: 'SG_TARGET_PROTOCOL', message: expect.stringMatching(/^blocked by OAUTH-DEVICE-FORMAT-JSON: .*got no device_code \(HTTP 400\)/) });
    const bridge = fakeContext({ agent_bridge_url: 'http://platform.test/a' }, () => ({ status: 500, body: 'down' }));
    await expect(act(bridge.ctx, 'approve', {})).rejects.toMatchObject({ code: 'SG_TARGET_PROTOCOL' });
  });
});
