import { describe, expect, it } from 'vitest';
import { Baseline, baselineTarget } from '../../src/engine/baseline.js';
import type { CaseDef, CaseResult, Failure, LoadedSuite, SuiteResult } from '../../src/engine/model.js';
import { gatingOf, requirementVerdicts, summarize } from '../../src/engine/verdicts.js';

const def = (id: string, requirements: string[]): CaseDef => ({ id, requirements, steps: [], location: { file: 'cases.yaml', line: 1, column: 1 } });
const suite: LoadedSuite = {
  name: 's',
  dir: '/nowhere',
  requirements: ['A', 'B'].map((id) => ({ id: `S-${id}`, level: 'MUST' as const, source: 's.txt#S', text: '' })),
  cases: [def('one', ['S-A', 'S-B']), def('two', ['S-A'])],
};
const failure = (requirement: string): Failure => ({ requirement, message: `${requirement} broken` });
const result = (id: string, requirements: string[], outcome: CaseResult['outcome'], failures: Failure[] = []): CaseResult => ({ suite: 's', id, requirements, outcome, failures, exchanges: [], durationMs: 1 });

/** Runs the verdict pipeline the way run-suite does: case statuses, then requirements, then the summary. */
function judge(results: CaseResult[], baseline: Baseline): { statuses: Record<string, string>; cases: Record<string, string | undefined>; exitCode: number; stale: string[] } {
  for (const r of results) {
    const status = baseline.caseStatus('s', r);
    if (status) r.baseline = status;
  }
  const requirements = requirementVerdicts(suite, results, baseline);
  const suites: SuiteResult[] = [{ name: 's', target: 'reference', cases: results, requirements, durationMs: 1, properties: {} }];
  const summary = summarize(suites, gatingOf(false), baseline);
  return {
    statuses: Object.fromEntries(requirements.map((v) => [v.id, v.status])),
    cases: Object.fromEntries(results.map((r) => [r.id, r.baseline])),
    exitCode: summary.exitCode,
    stale: summary.staleBaseline.map((e) => e.id),
  };
}

describe('baseline entries for one requirement of one case', () => {
  it('are classified with their suite, case and requirement, and missing when the case does not list it', () => {
    expect(baselineTarget('s/one:S-B', [suite])).toEqual({ kind: 'case-requirement', suite: 's', caseId: 'one', requirement: 'S-B', missing: false });
    expect(baselineTarget('s/two:S-B', [suite])).toMatchObject({ kind: 'case-requirement', missing: true });
    expect(baselineTarget('s/three:S-A', [suite])).toMatchObject({ kind: 'case-requirement', missing: true });
    expect(baselineTarget('t/any:S-A', [suite])).toMatchObject({ kind: 'case-requirement', suite: 't', missing: false });
  });

  it('make that failure in that case expected, and the run passes', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation' }]);
    const out = judge([result('one', ['S-A', 'S-B'], 'failed', [failure('S-A')]), result('two', ['S-A'], 'passed')], baseline);
    expect(out).toEqual({ statuses: { 'S-A': 'expected-failure', 'S-B': 'passed' }, cases: { one: 'expected-failure', two: undefined }, exitCode: 0, stale: [] });
    expect(requirementVerdicts(suite, [result('one', ['S-A', 'S-B'], 'failed', [failure('S-A')])], baseline)[0]?.reason).toBe('known deviation');
  });

  it('do not hide the same requirement failing in another case', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation' }]);
    const out = judge([result('one', ['S-A', 'S-B'], 'failed', [failure('S-A')]), result('two', ['S-A'], 'failed', [failure('S-A')])], baseline);
    expect(out.statuses['S-A']).toBe('failed');
    expect(out.cases).toEqual({ one: 'expected-failure', two: undefined });
    expect(out.exitCode).toBe(1);
  });

  it('do not hide another requirement failing in the same case', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation' }]);
    const out = judge([result('one', ['S-A', 'S-B'], 'failed', [failure('S-A'), failure('S-B')]), result('two', ['S-A'], 'passed')], baseline);
    expect(out.statuses).toEqual({ 'S-A': 'expected-failure', 'S-B': 'failed' });
    expect(out.cases['one']).toBeUndefined();
    expect(out.exitCode).toBe(1);
  });

  it('are stale once their case judges the requirement and passes it, even while another case fails it', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation' }]);
    const passing = judge([result('one', ['S-A', 'S-B'], 'passed'), result('two', ['S-A'], 'passed')], baseline);
    expect(passing).toEqual({ statuses: { 'S-A': 'passed', 'S-B': 'passed' }, cases: { one: 'stale', two: undefined }, exitCode: 1, stale: ['s/one:S-A'] });
    const elsewhere = judge([result('one', ['S-A', 'S-B'], 'failed', [failure('S-B')]), result('two', ['S-A'], 'failed', [failure('S-A')])], baseline);
    expect(elsewhere.statuses['S-A']).toBe('failed');
    expect(elsewhere.stale).toEqual(['s/one:S-A']);
  });

  it('are not stale when their case did not judge the requirement (skipped)', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation' }]);
    const out = judge([result('one', ['S-A', 'S-B'], 'skipped'), result('two', ['S-A'], 'passed')], baseline);
    expect(out).toMatchObject({ exitCode: 0, stale: [] });
  });

  it('fail the run once expired, like every other entry', () => {
    const baseline = new Baseline([{ id: 's/one:S-A', reason: 'known deviation', expires: '2000-01-01' }], '2024-01-01');
    const out = judge([result('one', ['S-A', 'S-B'], 'failed', [failure('S-A')]), result('two', ['S-A'], 'passed')], baseline);
    expect(out.statuses['S-A']).toBe('expected-failure');
    expect(out.exitCode).toBe(1);
  });
});
