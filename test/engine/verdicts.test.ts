import { describe, expect, it } from 'vitest';
import { Baseline } from '../../src/engine/baseline.js';
import type { CaseResult, Failure, Level, LoadedSuite, Requirement, SuiteResult } from '../../src/engine/model.js';
import { blockOnAssumptions, gates, gatingOf, judged, requirementVerdicts, summarize } from '../../src/engine/verdicts.js';

const req = (id: string, level: Level = 'MUST', excluded?: string): Requirement => ({ id, level, source: 's.txt#S', text: `${id} text`, ...(excluded ? { excluded } : {}) });

function suiteOf(...requirements: Requirement[]): LoadedSuite {
  return { name: 's', dir: '/nowhere', requirements, cases: [] };
}

function result(id: string, requirements: string[], outcome: CaseResult['outcome'], extra: Partial<CaseResult> = {}): CaseResult {
  return { suite: 's', id, requirements, outcome, failures: [], exchanges: [], durationMs: 1, ...extra };
}
const failure = (requirement: string): Failure => ({ requirement, message: `${requirement} broken` });

function verdict(requirements: Requirement[], results: CaseResult[], baseline = new Baseline()): Record<string, { status: string; reason?: string; stale?: boolean }> {
  return Object.fromEntries(
    requirementVerdicts(suiteOf(...requirements), results, baseline).map((v) => [v.id, { status: v.status, ...(v.reason ? { reason: v.reason } : {}), ...(v.stale ? { stale: true } : {}) }]),
  );
}

describe('requirement verdicts', () => {
  it('passed when a covering case passed', () => {
    expect(verdict([req('A')], [result('c1', ['A'], 'passed')])).toEqual({ A: { status: 'passed' } });
  });

  it('failed when a failure is attributed to it, with the failures listed', () => {
    const vs = requirementVerdicts(suiteOf(req('A')), [result('c1', ['A'], 'failed', { failures: [failure('A')] }), result('c2', ['A'], 'passed')], new Baseline());
    expect(vs[0]).toMatchObject({ status: 'failed', cases: ['c1', 'c2'], failures: [failure('A')] });
  });

  it('a case that failed on another of its requirements still judged this one (passed)', () => {
    const r = result('c1', ['A', 'B'], 'failed', { failures: [failure('B')] });
    expect(judged(r, 'A')).toBe(true);
    expect(judged(r, 'B')).toBe(false);
    expect(verdict([req('A'), req('B')], [r])).toEqual({ A: { status: 'passed' }, B: { status: 'failed' } });
  });

  it('a case that found a failure and then hit a fault did not judge its other requirements', () => {
    const r = result('c1', ['A', 'B'], 'failed', { failures: [failure('B')], errorCode: 'SG_TARGET_TIMEOUT', reason: 'SG_TARGET_TIMEOUT: slow' });
    expect(judged(r, 'A')).toBe(false);
    expect(verdict([req('A')], [r])['A']?.status).toBe('untested');
  });

  it('untested when a covering case errored, even if another passed, with the reason', () => {
    expect(verdict([req('A')], [result('c1', ['A'], 'passed'), result('c2', ['A'], 'errored', { reason: 'cannot reach the target', errorCode: 'SG_TARGET_UNREACHABLE' })])).toEqual({
      A: { status: 'untested', reason: 'case c2 errored: cannot reach the target' },
    });
  });

  it('untested when every covering case was skipped, with the skip reason', () => {
    expect(verdict([req('A')], [result('c1', ['A'], 'skipped', { reason: 'time-bound: no clock' })])).toEqual({ A: { status: 'untested', reason: 'skipped: time-bound: no clock' } });
  });

  it('a passed case outweighs a skipped one', () => {
    expect(verdict([req('A')], [result('c1', ['A'], 'skipped', { reason: 'x' }), result('c2', ['A'], 'passed')])['A']?.status).toBe('passed');
  });

  it('untested when no case covers it', () => {
    expect(verdict([req('A', 'MAY')], [])).toEqual({ A: { status: 'untested', reason: 'no case covers it' } });
  });

  it('excluded with its reason', () => {
    expect(verdict([req('A', 'MUST', 'not observable')], [])).toEqual({ A: { status: 'excluded', reason: 'not observable' } });
  });

  it('counts errored and skipped covering cases', () => {
    const [v] = requirementVerdicts(suiteOf(req('A')), [result('c1', ['A'], 'errored'), result('c2', ['A'], 'skipped'), result('c3', ['A'], 'skipped')], new Baseline());
    expect(v).toMatchObject({ errored: 1, skipped: 2 });
  });

  describe('with a baseline', () => {
    it('a listed requirement that fails is an expected failure with the entry and its reason', () => {
      const entry = { id: 'A', reason: 'vendor bug 12' };
      const [v] = requirementVerdicts(suiteOf(req('A')), [result('c1', ['A'], 'failed', { failures: [failure('A')] })], new Baseline([entry]));
      expect(v).toMatchObject({ status: 'expected-failure', reason: 'vendor bug 12', baseline: entry });
    });

    it('a listed requirement that passes is passed and stale', () => {
      expect(verdict([req('A')], [result('c1', ['A'], 'passed')], new Baseline([{ id: 'A', reason: 'r' }]))).toEqual({
        A: { status: 'passed', stale: true, reason: 'listed in the baseline as expected to fail, but it passes' },
      });
    });

    it('a listed requirement that is untested is neither expected-failure nor stale', () => {
      expect(verdict([req('A')], [result('c1', ['A'], 'skipped', { reason: 'x' })], new Baseline([{ id: 'A', reason: 'r' }]))['A']).toEqual({ status: 'untested', reason: 'skipped: x' });
    });

    it('a requirement whose failing cases are all listed is an expected failure; one unlisted failing case makes it failed', () => {
      const listed = result('c1', ['A'], 'failed', { failures: [failure('A')], baseline: 'expected-failure' });
      const unlisted = result('c2', ['A'], 'failed', { failures: [failure('A')] });
      expect(verdict([req('A')], [listed])['A']).toEqual({ status: 'expected-failure', reason: 'every failing case is listed in the baseline' });
      expect(verdict([req('A')], [listed, unlisted])['A']?.status).toBe('failed');
    });
  });
});

describe('gating levels', () => {
  it('MUST always gates, SHOULD only with --strict, MAY never', () => {
    expect([gates('MUST', gatingOf(false)), gates('MUST', gatingOf(true))]).toEqual([true, true]);
    expect([gates('SHOULD', gatingOf(false)), gates('SHOULD', gatingOf(true))]).toEqual([false, true]);
    expect([gates('MAY', gatingOf(false)), gates('MAY', gatingOf(true))]).toEqual([false, false]);
  });

  it('STRICTER gates only with --stricter, which also gates SHOULD', () => {
    expect([gates('STRICTER', gatingOf(false)), gates('STRICTER', gatingOf(true)), gates('STRICTER', gatingOf(false, true))]).toEqual([false, false, true]);
    expect(gates('SHOULD', gatingOf(false, true))).toBe(true);
    expect(gates('MAY', gatingOf(false, true))).toBe(false);
  });
});

describe('run summary and exit code', () => {
  function suiteResult(statuses: Record<string, [Level, 'passed' | 'failed' | 'untested' | 'excluded' | 'expected-failure']>, cases: CaseResult[] = [], extra: Partial<SuiteResult> = {}): SuiteResult {
    return {
      name: 's',
      target: 't',
      cases,
      requirements: Object.entries(statuses).map(([id, [level, status]]) => ({ id, suite: 's', level, text: '', source: '', status, cases: ['c'], failures: [], errored: 0, skipped: 0 })),
      durationMs: 1,
      properties: {},
      ...extra,
    };
  }
  const code = (s: SuiteResult, strict = false, baseline = new Baseline()): number => summarize([s], gatingOf(strict), baseline).exitCode;

  it('0 when conformant: untested, excluded, expected failures and MAY failures do not gate', () => {
    const s = suiteResult({ A: ['MUST', 'passed'], B: ['MAY', 'failed'], C: ['MUST', 'untested'], D: ['MUST', 'excluded'], E: ['MUST', 'expected-failure'] }, [result('c', ['A'], 'skipped')]);
    const sum = summarize([s], gatingOf(false), new Baseline());
    expect(sum.exitCode).toBe(0);
    expect(sum.verdict).toBe('conformant at the gating level (MUST): judged 2 of 3 gating requirements (66%); 1 untested in all');
    expect(sum.judged).toEqual({ gating: 3, judged: 2 });
    expect(sum.requirements).toEqual({ passed: 1, failed: 1, untested: 1, blocked: 0, excluded: 1, 'expected-failure': 1, 'not-applicable': 0, 'not-selected': 0, total: 5, stale: 0 });
    expect(sum.cases).toEqual({ passed: 0, failed: 0, errored: 0, skipped: 1, total: 1 });
  });

  it('1 for a failed MUST', () => {
    const sum = summarize([suiteResult({ A: ['MUST', 'failed'] })], gatingOf(false), new Baseline());
    expect(sum.exitCode).toBe(1);
    expect(sum.gatingFailures).toBe(1);
    expect(sum.verdict).toBe('not conformant: 1 requirement(s) failed at the gating level (MUST); judged 1 of 1 gating requirements (100%)');
  });

  it('a failed SHOULD gates only with --strict', () => {
    const s = suiteResult({ A: ['SHOULD', 'failed'], M: ['MUST', 'passed'] });
    expect(code(s, false)).toBe(0);
    expect(code(s, true)).toBe(1);
    expect(summarize([s], gatingOf(true), new Baseline()).verdict).toContain('(MUST and SHOULD)');
  });

  it('a failed STRICTER requirement is reported failed but gates only with --stricter', () => {
    const s = suiteResult({ A: ['STRICTER', 'failed'], M: ['MUST', 'passed'] });
    const plain = summarize([s], gatingOf(true), new Baseline());
    expect([plain.exitCode, plain.requirements.failed]).toEqual([0, 1]);
    const stricter = summarize([s], gatingOf(false, true), new Baseline());
    expect(stricter.exitCode).toBe(1);
    expect(stricter.verdict).toContain('failed at the gating level (MUST, SHOULD and STRICTER)');
  });

  it('3 when a case errored and nothing gates', () => {
    const sum = summarize([suiteResult({ A: ['MUST', 'untested'] }, [result('c', ['A'], 'errored')])], gatingOf(false), new Baseline());
    expect(sum.exitCode).toBe(3);
    expect(sum.verdict).toBe('not judged: 1 case(s) or suite(s) could not be judged because of a harness or target fault');
  });

  it('3 when a suite could not start', () => {
    expect(code(suiteResult({}, [], { error: { code: 'SG_TARGET_UNREACHABLE', message: 'x' } }))).toBe(3);
  });

  it('1 wins over 3: a conformance failure is reported even if another case errored', () => {
    expect(code(suiteResult({ A: ['MUST', 'failed'] }, [result('c', ['B'], 'errored')]))).toBe(1);
  });

  it('1 for a stale baseline entry (requirement or case)', () => {
    const entry = { id: 'A', reason: 'r' };
    const s = suiteResult({ A: ['MUST', 'passed'] });
    const first = s.requirements[0];
    if (first) Object.assign(first, { stale: true, baseline: entry });
    const sum = summarize([s], gatingOf(false), new Baseline([entry]));
    expect(sum.exitCode).toBe(1);
    expect(sum.staleBaseline).toEqual([entry]);
    expect(sum.verdict).toBe('not conformant: 1 baseline entry is stale (now passing: remove them); judged 1 of 1 gating requirements (100%)');

    const caseEntry = { id: 's/c1', reason: 'r' };
    const withCase = suiteResult({ A: ['MUST', 'passed'] }, [result('c1', ['A'], 'passed', { baseline: 'stale' })]);
    expect(summarize([withCase], gatingOf(false), new Baseline([caseEntry])).staleBaseline).toEqual([caseEntry]);
  });

  it('1 for an expired baseline entry, even when everything else is fine', () => {
    const entry = { id: 'A', reason: 'r', expires: '2020-01-31' };
    const baseline = new Baseline([entry], '2020-02-01');
    const sum = summarize([suiteResult({ A: ['MUST', 'expected-failure'] })], gatingOf(false), baseline);
    expect(sum.exitCode).toBe(1);
    expect(sum.expiredBaseline).toEqual([entry]);
    expect(sum.verdict).toBe('not conformant: 1 baseline entry has expired; judged 1 of 1 gating requirements (100%)');
  });

  it('4 when no gating requirement was judged, or fewer than --require-judged asks; 1 and 3 win over it', () => {
    const none = summarize([suiteResult({ A: ['MUST', 'untested'], B: ['MUST', 'blocked' as 'untested'], C: ['SHOULD', 'passed'] })], gatingOf(false), new Baseline());
    expect(none.exitCode).toBe(4);
    expect(none.judged).toEqual({ gating: 2, judged: 0 });
    expect(none.verdict).toBe('not conformant: no requirement at the gating level (MUST) was judged (0 of 2): nothing here shows the target conforms');
    const some = suiteResult({ A: ['MUST', 'passed'], B: ['MUST', 'untested'], C: ['MUST', 'untested'] });
    expect(summarize([some], gatingOf(false), new Baseline()).exitCode).toBe(0);
    expect(summarize([some], gatingOf(false), new Baseline(), 34).verdict).toBe('not conformant: judged 1 of 3 gating requirements (33%), fewer than --require-judged 34% asks');
    expect(summarize([some], gatingOf(false), new Baseline(), 33).exitCode).toBe(0);
    expect(code(suiteResult({ A: ['MUST', 'failed'], B: ['MUST', 'untested'] }))).toBe(1);
    expect(code(suiteResult({ A: ['MUST', 'untested'] }, [result('c', ['A'], 'errored')]))).toBe(3);
  });

  it('an entry that expires today is still valid', () => {
    expect(new Baseline([{ id: 'A', reason: 'r', expires: '2020-02-01' }], '2020-02-01').expired()).toEqual([]);
  });
});

describe('not applicable', () => {
  const sided = (id: string, side: string, excluded?: string): Requirement => ({ ...req(id, 'MUST', excluded), side });
  const na = (id: string, requirements: string[], reason = 'the target has no device flow'): CaseResult => result(id, requirements, 'skipped', { reason, notApplicable: true });
  const sidedVerdict = (requirements: Requirement[], results: CaseResult[], sides?: string[], baseline = new Baseline()): Record<string, { status: string; reason?: string }> =>
    Object.fromEntries(requirementVerdicts(suiteOf(...requirements), results, baseline, sides).map((v) => [v.id, { status: v.status, ...(v.reason ? { reason: v.reason } : {}) }]));

  it('a requirement whose only case ended not applicable is not applicable, with the case reason', () => {
    expect(verdict([req('A')], [na('c1', ['A'])])).toEqual({ A: { status: 'not-applicable', reason: 'the target has no device flow' } });
  });

  it('another case that judged it wins: passed or failed', () => {
    expect(verdict([req('A')], [na('c1', ['A']), result('c2', ['A'], 'passed')])['A']?.status).toBe('passed');
    expect(verdict([req('A')], [na('c1', ['A']), result('c2', ['A'], 'failed', { failures: [failure('A')] })])['A']?.status).toBe('failed');
  });

  it('a finding the case recorded before it ended not applicable still fails the requirement', () => {
    expect(verdict([req('A')], [na('c1', ['A'], 'no such mode')].map((r) => ({ ...r, failures: [failure('A')] })))['A']?.status).toBe('failed');
  });

  it('untested when another covering case could have judged it (skipped for another reason, or errored), with that case reason', () => {
    expect(verdict([req('A')], [na('c1', ['A']), result('c2', ['A'], 'skipped', { reason: 'needs a browser' })])).toEqual({ A: { status: 'untested', reason: 'skipped: needs a browser' } });
    expect(verdict([req('A')], [na('c1', ['A']), result('c2', ['A'], 'errored', { reason: 'no answer' })])['A']).toEqual({ status: 'untested', reason: 'case c2 errored: no answer' });
  });

  it('several not-applicable cases give each distinct reason once', () => {
    expect(verdict([req('A')], [na('c1', ['A'], 'no web flow'), na('c2', ['A'], 'no device flow'), na('c3', ['A'], 'no web flow')])['A']?.reason).toBe('no web flow; no device flow');
  });

  it('a plain skip is still untested (a skip is not a statement that the requirement does not apply)', () => {
    expect(verdict([req('A')], [result('c1', ['A'], 'skipped', { reason: 'no clock' })])['A']?.status).toBe('untested');
  });

  it('a run of one side: the other side is not applicable with the run side named; its excluded requirements stay excluded', () => {
    const reqs = [sided('S', 'server'), sided('C', 'client'), sided('CX', 'client', 'not observable'), sided('SU', 'server')];
    expect(sidedVerdict(reqs, [result('c1', ['S'], 'passed')], ['server'])).toEqual({
      S: { status: 'passed' },
      C: { status: 'not-applicable', reason: 'this run judges the server side only' },
      CX: { status: 'excluded', reason: 'not observable' },
      SU: { status: 'untested', reason: 'no case covers it' },
    });
  });

  it('without a chosen side every side is judged: an uncovered client requirement is untested', () => {
    expect(sidedVerdict([sided('C', 'client')], [])).toEqual({ C: { status: 'untested', reason: 'no case covers it' } });
  });

  it('names several judged sides', () => {
    expect(sidedVerdict([sided('X', 'x')], [], ['a', 'b'])['X']?.reason).toBe('this run judges the a and b sides only');
  });

  it('a baseline entry for a requirement that does not apply is neither expected-failure nor stale', () => {
    const entry = { id: 'C', reason: 'vendor bug' };
    const [v] = requirementVerdicts(suiteOf(sided('C', 'client')), [], new Baseline([entry]), ['server']);
    expect(v).toMatchObject({ status: 'not-applicable' });
    expect(v?.stale).toBeUndefined();
    // nothing else judged: not conformant for that (4), and the entry makes it neither 1 nor 0
    expect(summarize([{ name: 's', target: 't', cases: [], requirements: v ? [v] : [], durationMs: 1, properties: {} }], gatingOf(false), new Baseline([entry])).exitCode).toBe(4);
  });

  it('is counted apart and never gates: exit code 0 at every level', () => {
    const verdicts = requirementVerdicts(suiteOf(sided('S', 'server'), { ...sided('C', 'client'), level: 'SHOULD' }), [result('c1', ['S'], 'passed')], new Baseline(), ['server']);
    const s: SuiteResult = { name: 's', target: 't', cases: [result('c1', ['S'], 'passed')], requirements: verdicts, durationMs: 1, properties: {} };
    for (const strict of [false, true]) {
      const sum = summarize([s], gatingOf(strict), new Baseline());
      expect(sum.exitCode).toBe(0);
      expect(sum.requirements).toMatchObject({ passed: 1, 'not-applicable': 1, untested: 0, total: 2 });
    }
  });

  it('the verdict carries the side of its requirement', () => {
    expect(requirementVerdicts(suiteOf(sided('C', 'client')), [], new Baseline())[0]?.side).toBe('client');
    expect(requirementVerdicts(suiteOf(req('A')), [], new Baseline())[0]?.side).toBeUndefined();
  });
});

describe('blocked verdicts and evidence', () => {
  it('a failed case whose assumed requirement fails elsewhere is blocked by it; its failures are kept as evidence', () => {
    const root = result('root', ['A'], 'failed', { failures: [failure('A')] });
    const leaf = result('leaf', ['B'], 'failed', { failures: [failure('B')], assumes: ['A'] });
    const settled = blockOnAssumptions([root, leaf]);
    expect(settled[0]).toBe(root);
    expect(settled[1]).toMatchObject({ outcome: 'skipped', failures: [], blockedFailures: [failure('B')], blockedBy: { requirement: 'A' } });
    const vs = requirementVerdicts(suiteOf(req('A'), req('B')), settled, new Baseline());
    expect(vs.map((v) => [v.id, v.status, v.blockedBy])).toEqual([
      ['A', 'failed', undefined],
      ['B', 'blocked', ['A']],
    ]);
    expect(vs[1]?.reason).toMatch(/^blocked by A: A failed in case root \(A broken\); this case assumes it holds \(case leaf\)$/);
  });

  it('an assumption that holds leaves the failure standing; a chain blocks back to its root; a cycle blocks nothing', () => {
    const lone = result('lone', ['B'], 'failed', { failures: [failure('B')], assumes: ['A'] });
    expect(blockOnAssumptions([result('a', ['A'], 'passed'), lone])[1]).toBe(lone);
    const chain = blockOnAssumptions([
      result('a', ['A'], 'failed', { failures: [failure('A')] }),
      result('b', ['B'], 'failed', { failures: [failure('B')], assumes: ['A'] }),
      result('c', ['C'], 'failed', { failures: [failure('C')], assumes: ['B'] }),
    ]);
    expect(chain.map((c) => c.outcome)).toEqual(['failed', 'skipped', 'skipped']);
    // c rests on B, whose only failure is itself blocked: c is blocked (by B), B and C are both blocked, A is the one root
    const vs = requirementVerdicts(suiteOf(req('A'), req('B'), req('C')), chain, new Baseline());
    expect(vs.map((v) => v.status)).toEqual(['failed', 'blocked', 'blocked']);
    const cycle = [result('x', ['X'], 'failed', { failures: [failure('X')], assumes: ['Y'] }), result('y', ['Y'], 'failed', { failures: [failure('Y')], assumes: ['X'] })];
    expect(blockOnAssumptions(cycle).map((c) => c.outcome)).toEqual(['failed', 'failed']);
  });

  it('a passing case of the same requirement outweighs a blocked one', () => {
    const settled = blockOnAssumptions([
      result('root', ['A'], 'failed', { failures: [failure('A')] }),
      result('leaf', ['B'], 'failed', { failures: [failure('B')], assumes: ['A'] }),
      result('other', ['B'], 'passed', { evidence: { B: 2 } }),
    ]);
    expect(requirementVerdicts(suiteOf(req('A'), req('B')), settled, new Baseline())[1]).toMatchObject({ status: 'passed', evidence: 2 });
  });

  it('a case blocked by a precondition, or one requirement blocked by a judge, makes it blocked, never failed or passed', () => {
    const pre = result('pre', ['A', 'B'], 'skipped', { blockedBy: { requirement: 'REG', message: 'registration answered 202' } });
    expect(verdict([req('A')], [pre])['A']).toEqual({ status: 'blocked', reason: 'blocked by REG: registration answered 202 (case pre)' });
    const one = result('one', ['A', 'B'], 'passed', { evidence: { B: 1 }, blocked: { A: { requirement: 'X', message: 'x broke' } } });
    expect(verdict([req('A'), req('B')], [one])).toEqual({ A: { status: 'blocked', reason: 'blocked by X: x broke (case one)' }, B: { status: 'passed' } });
  });

  it('no pass without evidence: a case that judged nothing leaves the requirement untested with the reason', () => {
    const empty = result('empty', ['A'], 'passed', { noEvidence: { A: 'the answer held no items at $.leads' } });
    expect(verdict([req('A')], [empty])['A']).toEqual({ status: 'untested', reason: 'nothing to judge: the answer held no items at $.leads (case empty)' });
    const looked = result('looked', ['A', 'B'], 'passed', { evidence: { B: 1 } });
    expect(verdict([req('A')], [looked])['A']?.status).toBe('untested');
    const [v] = requirementVerdicts(suiteOf(req('A')), [empty, result('full', ['A'], 'passed', { evidence: { A: 3 } })], new Baseline());
    expect(v).toMatchObject({ status: 'passed', evidence: 3 });
  });
});
