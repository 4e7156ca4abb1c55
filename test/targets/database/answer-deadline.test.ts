import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../../src/errors.js';
import { answerDeadline } from '../../../src/targets/database/answer-deadline.js';
import { rejection } from '../../helpers/rejection.js';

describe('answerDeadline', () => {
  it('cuts a request off at its time limit with SG_TARGET_TIMEOUT, naming the database and what to raise', async () => {
    const deadline = answerDeadline('127.0.0.1:5432', 20, 'query');
    const e = await rejection(deadline.cut);
    deadline.clear();
    expect(e.code).toBe('SG_TARGET_TIMEOUT');
    expect(e.message).toBe("the database at 127.0.0.1:5432 did not answer within 20 ms; raise `database.timeoutMs` in the target profile or the step's `timeoutMs`");
  });

  it('gives up when the case is abandoned: with its reason, or SG_CASE_TIMEOUT naming the request when that is no error', async () => {
    const withReason = new AbortController();
    const first = answerDeadline('db', 60_000, 'query', withReason.signal);
    withReason.abort(new SpecgateError('SG_CASE_TIMEOUT', 'case timed out'));
    expect((await rejection(first.cut)).message).toBe('case timed out');
    first.clear();
    const bare = new AbortController();
    const second = answerDeadline('db', 60_000, 'command', bare.signal);
    bare.abort('stop');
    expect(await rejection(second.cut)).toMatchObject({ code: 'SG_CASE_TIMEOUT', message: 'the command was abandoned' });
    second.clear();
  });

  it('once cleared, neither the timer nor an abort ends it', async () => {
    const ac = new AbortController();
    const deadline = answerDeadline('db', 10, 'query', ac.signal);
    deadline.clear();
    ac.abort(new Error('too late'));
    const settled = await Promise.race([deadline.cut.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 50))]);
    expect(settled).toBe('pending');
  });
});
