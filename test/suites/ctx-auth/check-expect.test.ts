import { describe, expect, it } from 'vitest';
import { expectCheck, requireCheck } from '../../../suites/ctx-auth/checks/expect.js';
import { outcome, scriptedContext } from './check-context.js';

/** `ctx-auth.expect` judges a value; `ctx-auth.require` is a precondition that never passes or fails a requirement. */

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
