import { describe, expect, it } from 'vitest';
import { expectCheck, requireCheck } from '../../../suites/ctx-auth/checks/expect.js';
import { outcome, scriptedContext } from './check-context.js';

/** `ctx-auth.expect` judges a value; `ctx-auth.require` is a precondition that never passes a requirement, and fails only the owner its case judges. */

const context = () => scriptedContext({}, () => ({ status: 500 }));

describe('ctx-auth.expect', () => {
  it('passes a matching value and fails a planted wrong one, naming what it is and the requirement', async () => {
    const ok = context();
    await expectCheck.run(ok.ctx, { value: { redirected: true, state: 'a b' }, matches: { redirected: true, state: { $equals: 'a b' } } } as never);
    expect(ok.failures).toEqual([]);
    const wrong = context();
    await expectCheck.run(wrong.ctx, { value: 200, matches: 401, requirement: 'CTX-SRV-401-EXPIRED', message: 'the resource answering an old token (the target advertised expires_in=3600)' } as never);
    expect(wrong.failures).toEqual([{ requirement: 'CTX-SRV-401-EXPIRED', message: 'the resource answering an old token (the target advertised expires_in=3600): expected 401, got 200', expected: 401, actual: 200 }]);
    const absent = context();
    await expectCheck.run(absent.ctx, { value: { code: undefined }, matches: { code: { $type: 'string' } } } as never);
    expect(absent.failures).toEqual([expect.objectContaining({ message: expect.stringMatching(/^value: \$\.code expected a string/), actual: '(absent)' })]);
    expect(absent.failures[0]).not.toHaveProperty('requirement');
  });
});

describe('ctx-auth.require', () => {
  it('lets a matching value through', async () => {
    expect(await outcome(requireCheck.run(context().ctx, { value: 'code', matches: { $type: 'string' }, because: 'no code' } as never))).toEqual({ ended: 'ran' });
  });

  it('ends the case errored, skipped or not applicable on a planted wrong value, never as a failure', async () => {
    for (const [otherwise, ended] of [[undefined, 'error'], ['skip', 'skipped'], ['not-applicable', 'not-applicable']] as const) {
      const probe = context();
      const r = await outcome(requireCheck.run(probe.ctx, { value: undefined, matches: { $type: 'string', $minLength: 1 }, because: 'the exchange gave no access_token', ...(otherwise ? { otherwise } : {}) } as never));
      expect(r.ended).toBe(ended);
      expect(JSON.stringify(r)).toContain('the exchange gave no access_token');
      expect(probe.failures).toEqual([]);
    }
    const errored = await outcome(requireCheck.run(context().ctx, { value: 1, matches: 2, because: 'x' } as never));
    expect(errored).toMatchObject({ ended: 'error', code: 'SG_TARGET_PROTOCOL', message: expect.stringMatching(/^cannot judge: x \(/) });
  });
});

describe('ctx-auth.require with an owner', () => {
  /** A context of a case judging `requirements`, whose step names `precondition`. */
  const owned = (vars: Record<string, unknown>, requirements: string[], precondition?: string) => {
    const probe = scriptedContext(vars, () => ({ status: 500 }));
    Object.assign(probe.ctx, { requirements, ...(precondition ? { precondition } : {}) });
    return probe;
  };
  const noToken = { value: undefined, matches: { $type: 'string', $minLength: 1 }, because: 'no access_token' };

  it('blocks the case by the step\'s precondition owner, failing nothing it does not judge', async () => {
    const probe = owned({}, ['CTX-SRV-401-EXPIRED'], 'CTX-SRV-BEARER-ACCEPTED');
    expect(await outcome(requireCheck.run(probe.ctx, noToken as never))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-BEARER-ACCEPTED', reason: expect.stringMatching(/^no access_token \(/) });
    expect(probe.failures).toEqual([]);
  });

  it('ends blocked by the owner when the case judges it too (the engine fails the owner then, once)', async () => {
    const probe = owned({}, ['CTX-SRV-REFRESH'], 'CTX-SRV-REFRESH');
    expect(await outcome(requireCheck.run(probe.ctx, noToken as never))).toMatchObject({ ended: 'blocked', by: 'CTX-SRV-REFRESH', reason: expect.stringMatching(/^no access_token/) });
  });

  it('with by: flow, blocks by the rule the flow rests on for that server and client', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ has_metadata: true, has_registration: false, client_registered: false }, 'CTX-SRV-NO-DCR-CLIENT'],
      [{ has_metadata: false, has_registration: true, client_registered: true }, 'CTX-SRV-FALLBACK-ENDPOINTS'],
      [{ has_metadata: true, has_registration: true, client_registered: true }, 'CTX-SRV-PKCE-S256'],
    ];
    for (const [vars, by] of cases) {
      const probe = owned(vars, ['CTX-SRV-TOKEN-NO-STORE']);
      expect(await outcome(requireCheck.run(probe.ctx, { ...noToken, by: 'flow' } as never)), by).toMatchObject({ ended: 'blocked', by });
      expect(probe.failures).toEqual([]);
    }
  });
});
