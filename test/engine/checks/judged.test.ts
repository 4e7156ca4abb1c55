import { describe, expect, it } from 'vitest';
import { PASS, fail, unjudged, type CheckDefinition, type JudgedCheckDefinition } from '../../../src/engine/checks/contract.js';
import { judgedCheck, stableJson } from '../../../src/engine/checks/judged.js';
import type { Exchange } from '../../../src/engine/model.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';

/** Judged checks: one observation, one judge per requirement the case lists, shared observations. */

interface Probe {
  ctx: CheckContext;
  failures: FailureInput[];
  exchanges: Exchange[];
  observed: { requirement: string | undefined; count: number }[];
  empty: { requirement: string; reason: string }[];
  blocked: { requirement: string; by: string; reason: string }[];
  abort(): void;
}

function probe(requirements: string[], observations = new Map<string, Promise<unknown>>(), vars: Record<string, unknown> = {}): Probe {
  const failures: FailureInput[] = [];
  const exchanges: Exchange[] = [];
  const observed: { requirement: string | undefined; count: number }[] = [];
  const empty: { requirement: string; reason: string }[] = [];
  const blocked: { requirement: string; by: string; reason: string }[] = [];
  const ac = new AbortController();
  const unused = (): never => {
    throw new Error('not used by these tests');
  };
  const ctx: CheckContext = {
    suite: 'demo',
    caseId: `case-${requirements.join('+')}`,
    requirements,
    vars,
    request: unused,
    exec: unused,
    execConfig: undefined,
    clock: undefined,
    agent: undefined,
    signal: ac.signal,
    observations,
    seed: 1,
    runs: 10,
    exchange: (ex) => void exchanges.push(ex),
    fail: (f) => void failures.push(f),
    observed: (requirement, count = 1) => void observed.push({ requirement, count }),
    noEvidence: (requirement, reason) => void empty.push({ requirement, reason }),
    blocked: unused,
    blockedOne: (requirement, by, reason) => void blocked.push({ requirement, by, reason }),
    property: unused,
    wait: unused,
    resolve: (v) => v,
    skip: unused,
    notApplicable: unused,
    headerName: (name: string) => name,
  };
  return { ctx, failures, exchanges, observed, empty, blocked, abort: () => ac.abort(new SpecgateError('SG_CASE_TIMEOUT', 'case timed out')) };
}

type Run = CheckDefinition<{ n?: number; note?: string }>['run'];
const runOf = (check: ReturnType<typeof judgedCheck>): Run => (check as unknown as CheckDefinition<{ n?: number; note?: string }>).run;

/** A judged check over a number; counts how often it observed. */
function numbers(more: Partial<JudgedCheckDefinition<{ n?: number; note?: string }, number>> = {}): { check: ReturnType<typeof judgedCheck>; observed: () => number } {
  let observed = 0;
  const check = judgedCheck<{ n?: number; note?: string }, number>({
    description: 'observes a number',
    args: { type: 'object' },
    observe: async (ctx, args) => {
      observed++;
      ctx.exchange({ kind: 'note', summary: `observed ${args.n ?? 0}` });
      await new Promise((r) => setTimeout(r, 20));
      return args.n ?? 0;
    },
    judgeBy: {
      EVEN: (n) => (n % 2 === 0 ? PASS : fail(`${n} is odd`, { expected: 'even', actual: n })),
      SMALL: (n) => (n < 10 ? PASS : fail(`${n} is not small`)),
      SEEN: (n) => (n > 0 ? PASS : unjudged('nothing was seen')),
      NOTED: (_n, args) => (args.note === 'bad' ? fail('the note says bad') : PASS),
    },
    ...more,
  });
  return { check, observed: () => observed };
}

describe('judgedCheck', () => {
  it('declares the requirements it has judges for', () => {
    expect(numbers().check.judges).toEqual(['EVEN', 'SMALL', 'SEEN', 'NOTED']);
  });

  it('runs only the judges of the requirements the case lists, recording each failure under its requirement', async () => {
    const p = probe(['EVEN', 'SMALL']);
    await runOf(numbers().check)(p.ctx, { n: 13 } as never);
    expect(p.failures).toEqual([
      { requirement: 'EVEN', message: '13 is odd', expected: 'even', actual: 13 },
      { requirement: 'SMALL', message: '13 is not small' },
    ]);
    const q = probe(['SMALL']);
    await runOf(numbers().check)(q.ctx, { n: 3 } as never);
    expect(q.failures).toEqual([]);
  });

  it('leaves a requirement with nothing to judge untested with the reason, and records what the others judged', async () => {
    const p = probe(['EVEN', 'SEEN']);
    await runOf(numbers().check)(p.ctx, { n: 0, note: 'x' } as never);
    expect(p.failures).toEqual([]);
    expect(p.empty).toEqual([{ requirement: 'SEEN', reason: 'nothing was seen' }]);
    expect(p.observed).toEqual([{ requirement: 'EVEN', count: 1 }]);
    const r = probe(['NOTED', 'SEEN']);
    await runOf(numbers().check)(r.ctx, { note: 'bad' } as never);
    expect(r.failures.map((f) => f.requirement)).toEqual(['NOTED']);
    expect(r.empty.map((e) => e.requirement)).toEqual(['SEEN']);
  });

  it('blocks a requirement whose judge finds the rule it rests on broken, and judges the rest', async () => {
    const check = judgedCheck<{ n: number }, number>({
      description: 'blocks',
      args: { type: 'object' },
      observe: async (_ctx, args) => args.n,
      judgeBy: { EVEN: (n) => (n % 2 === 0 ? { ok: true, observed: 3 } : { blockedBy: 'SEEN', reason: 'odd numbers are not seen' }), SMALL: (n) => (n < 10 ? PASS : fail('big')) },
    });
    const p = probe(['EVEN', 'SMALL']);
    await runOf(check)(p.ctx, { n: 3 } as never);
    expect(p.blocked).toEqual([{ requirement: 'EVEN', by: 'SEEN', reason: 'odd numbers are not seen' }]);
    expect(p.observed).toEqual([{ requirement: 'SMALL', count: 1 }]);
    const q = probe(['EVEN']);
    await runOf(check)(q.ctx, { n: 4 } as never);
    expect(q.observed).toEqual([{ requirement: 'EVEN', count: 3 }]);
  });

  it('refuses a case requirement it has no judge for, before observing', async () => {
    const { check, observed } = numbers();
    const p = probe(['EVEN', 'OTHER']);
    await expect(runOf(check)(p.ctx, { n: 2 } as never)).rejects.toMatchObject({ code: 'SG_SUITE_SCHEMA', message: expect.stringMatching(/cannot judge OTHER/) });
    expect(observed()).toBe(0);
  });

  it('observes once per case without share', async () => {
    const { check, observed } = numbers();
    const shared = new Map<string, Promise<unknown>>();
    await Promise.all([runOf(check)(probe(['EVEN'], shared).ctx, { n: 2 } as never), runOf(check)(probe(['SMALL'], shared).ctx, { n: 2 } as never)]);
    expect(observed()).toBe(2);
    expect(shared.size).toBe(0);
  });

  it('with share, feeds one observation to every case with the same arguments, each judging its own requirements and seeing its exchanges', async () => {
    const { check, observed } = numbers({ share: true });
    const shared = new Map<string, Promise<unknown>>();
    const a = probe(['EVEN'], shared);
    const b = probe(['SMALL'], shared);
    const c = probe(['EVEN'], shared);
    await Promise.all([runOf(check)(a.ctx, { n: 13, note: 'x' } as never), runOf(check)(b.ctx, { note: 'x', n: 13 } as never), runOf(check)(c.ctx, { n: 12 } as never)]);
    expect(observed()).toBe(2);
    expect(a.failures.map((f) => f.message)).toEqual(['13 is odd']);
    expect(b.failures.map((f) => f.message)).toEqual(['13 is not small']);
    expect(c.failures).toEqual([]);
    expect(b.exchanges).toEqual([{ kind: 'note', summary: 'observed 13' }]);
    // later cases reuse the finished observation too
    await runOf(check)(probe(['SMALL'], shared).ctx, { n: 12 } as never);
    expect(observed()).toBe(2);
  });

  it('with shareBy, shares across arguments only the judges read', async () => {
    const { check, observed } = numbers({ share: true, shareBy: (args) => args.n });
    const shared = new Map<string, Promise<unknown>>();
    const good = probe(['NOTED'], shared);
    const bad = probe(['NOTED'], shared);
    await Promise.all([runOf(check)(good.ctx, { n: 4, note: 'fine' } as never), runOf(check)(bad.ctx, { n: 4, note: 'bad' } as never)]);
    expect(observed()).toBe(1);
    expect(good.failures).toEqual([]);
    expect(bad.failures.map((f) => f.message)).toEqual(['the note says bad']);
  });

  it('keeps checks apart: two judged checks with the same arguments observe separately', async () => {
    const one = numbers({ share: true });
    const two = numbers({ share: true });
    const shared = new Map<string, Promise<unknown>>();
    await runOf(one.check)(probe(['EVEN'], shared).ctx, { n: 2 } as never);
    await runOf(two.check)(probe(['EVEN'], shared).ctx, { n: 2 } as never);
    expect([one.observed(), two.observed()]).toEqual([1, 1]);
  });

  it('when the observing case is stopped, a waiting case observes again instead of inheriting the stop', async () => {
    let calls = 0;
    const check = judgedCheck<Record<string, never>, number>({
      description: 'slow',
      args: { type: 'object' },
      share: true,
      observe: (ctx) =>
        new Promise((resolve, reject) => {
          calls++;
          const t = setTimeout(() => resolve(2), 50);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(t);
            reject(ctx.signal.reason);
          });
        }),
      judgeBy: { EVEN: (n) => (n % 2 === 0 ? PASS : fail('odd')) },
    });
    const shared = new Map<string, Promise<unknown>>();
    const owner = probe(['EVEN'], shared);
    const waiter = probe(['EVEN'], shared);
    const first = runOf(check)(owner.ctx, {} as never);
    const second = runOf(check)(waiter.ctx, {} as never);
    owner.abort();
    await expect(first).rejects.toMatchObject({ code: 'SG_CASE_TIMEOUT' });
    await expect(second).resolves.toBeUndefined();
    expect(calls).toBe(2);
    expect(waiter.failures).toEqual([]);
  });

  it('shares an observation error with the cases waiting for it, and lets later cases observe afresh', async () => {
    let calls = 0;
    const check = judgedCheck<Record<string, never>, number>({
      description: 'breaks once',
      args: { type: 'object' },
      share: true,
      observe: async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 10));
        if (calls === 1) throw new SpecgateError('SG_TARGET_UNREACHABLE', 'no client');
        return 2;
      },
      judgeBy: { EVEN: () => PASS },
    });
    const shared = new Map<string, Promise<unknown>>();
    const both = await Promise.allSettled([runOf(check)(probe(['EVEN'], shared).ctx, {} as never), runOf(check)(probe(['EVEN'], shared).ctx, {} as never)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    await runOf(check)(probe(['EVEN'], shared).ctx, {} as never);
    expect(calls).toBe(2);
  });

  it('refuses findings recorded inside a shared observation (they belong to judges)', async () => {
    const check = judgedCheck<Record<string, never>, number>({
      description: 'records a finding while observing',
      args: { type: 'object' },
      share: true,
      observe: async (ctx) => {
        ctx.fail({ message: 'seen while observing' });
        return 1;
      },
      judgeBy: { EVEN: () => PASS },
    });
    const p = probe(['EVEN']);
    await expect(runOf(check)(p.ctx, {} as never)).rejects.toMatchObject({ code: 'SG_INTERNAL' });
    expect(p.failures).toEqual([]);
  });
});

describe('stableJson', () => {
  it('is the same for equal values whatever the key order, and tells different values apart', () => {
    expect(stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(stableJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
    expect(stableJson({ a: 1, b: undefined })).toBe(stableJson({ a: 1 }));
    expect(stableJson({ a: 1 })).not.toBe(stableJson({ a: '1' }));
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
  });
});
