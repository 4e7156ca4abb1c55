/**
 * Regression cases from shrunk counterexamples: the case names its suite wherever it is kept,
 * and the line printed after writing them is the run's own command with `--cases <dir>`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { casesCommand, hasRegressionCases, regressionCase } from '../../cli/regression-cases.js';
import type { CaseDef, CaseResult, RunResult } from '../../src/engine/model.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-regression-cases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a regression case', () => {
  it('names the suite it belongs to, so that it loads from any folder', () => {
    const file = join(root, 'numbers.yaml');
    writeFileSync(file, '- id: double-property\n  requirements: [DEMO-DOUBLE]\n  property: { generate: demo.smallInt, oracle: demo.doubled }\n  steps:\n    - request: { url: "${base_url}/double" }\n');
    const def = { id: 'double-property', requirements: ['DEMO-DOUBLE'], property: { generate: 'demo.smallInt', oracle: 'demo.doubled' }, steps: [], location: { file, line: 1, column: 3 } } as unknown as CaseDef;
    const result: CaseResult = { suite: 'demo', id: 'double-property', requirements: ['DEMO-DOUBLE'], outcome: 'failed', failures: [], exchanges: [], durationMs: 1, property: { seed: 7, runs: 100, path: '5:2', counterexample: 51, replay: 'specgate run --case double-property --seed 7 --path 5:2' } };
    const out = regressionCase(def, result, (v) => Number(v) * 2);
    if ('skipped' in out) throw new Error(out.skipped);
    const [item] = parse(out.yaml) as Record<string, unknown>[];
    expect(item).toMatchObject({ id: out.id, suite: 'demo', requirements: ['DEMO-DOUBLE'], vars: { case: 51, oracle: 102 } });
    expect(Object.keys(item ?? {}).slice(0, 2)).toEqual(['id', 'suite']);
    expect(out.yaml).toContain('--cases <its folder>');
  });
});

describe('the command that runs the regression cases with the suite', () => {
  const argv = (...args: string[]): string[] => ['/usr/bin/node', '/opt/specgate/bin/specgate.js', ...args];

  it("is the run's command without what chose this run's cases and inputs, with --cases <dir>", () => {
    expect(casesCommand(argv('run', '--suite', 'demo', '--target', 'bad.yaml', '--case', 'double-property', '--seed', '7', '--path', '5:2:1', '--report', 'json=gate/results.json', '--shard', '1/2'), 'gate/regressions')).toBe(
      'specgate run --suite demo --target bad.yaml --report json=gate/results.json --cases gate/regressions',
    );
  });

  it('adds --cases once: a run that already loads that folder keeps it, another folder stays too', () => {
    expect(casesCommand(argv('run', '--cases', 'gate/regressions', '--seed=3'), 'gate/regressions')).toBe('specgate run --cases gate/regressions');
    expect(casesCommand(argv('run', '--cases=mine', '--target', 'my target.yaml'), 'gate/regressions')).toBe("specgate run --cases=mine --target 'my target.yaml' --cases gate/regressions");
  });
});

describe('hasRegressionCases', () => {
  const result = (cases: Partial<CaseResult>[]): RunResult => ({ suites: [{ name: 'demo', cases }] }) as unknown as RunResult;
  const failedProperty: Partial<CaseResult> = { id: 'p', outcome: 'failed', property: { seed: 1, runs: 3, counterexample: { n: 1 } } };

  it('is true for a failed property case with a counterexample, so the run keeps its suites for it', () => {
    expect(hasRegressionCases(result([{ id: 'a', outcome: 'passed' }, failedProperty]))).toBe(true);
  });

  it('is false for passing runs, failures without a counterexample, throttled or blocked ones', () => {
    expect(hasRegressionCases(result([{ id: 'a', outcome: 'passed' }]))).toBe(false);
    expect(hasRegressionCases(result([{ id: 'b', outcome: 'failed' }]))).toBe(false);
    expect(hasRegressionCases(result([{ ...failedProperty, errorCode: 'SG_TARGET_THROTTLED' }]))).toBe(false);
    expect(hasRegressionCases(result([{ ...failedProperty, blockedBy: { requirement: 'R', caseId: 'c', reason: 'r' } as unknown as CaseResult['blockedBy'] }]))).toBe(false);
  });
});
