import { describe, expect, it } from 'vitest';
import { baselineTarget } from '../../src/engine/baseline.js';
import type { CaseDef, LoadedSuite } from '../../src/engine/model.js';

function suite(name: string, requirements: string[], cases: string[]): LoadedSuite {
  return {
    name,
    dir: `/suites/${name}`,
    requirements: requirements.map((id) => ({ id, level: 'MUST', source: 'spec.md#1', text: '' })),
    cases: cases.map((id): CaseDef => ({ id, requirements: [], steps: [], location: { file: 'cases.yaml', line: 1, column: 1 } })),
  };
}

const suites = [suite('alpha', ['ALPHA-ONE'], ['first-case']), suite('beta', ['BETA-ONE'], ['second-case'])];

describe('baselineTarget', () => {
  it('names the suite a requirement belongs to', () => {
    expect(baselineTarget('ALPHA-ONE', suites)).toEqual({ kind: 'requirement', suite: 'alpha' });
    expect(baselineTarget('BETA-ONE', suites)).toEqual({ kind: 'requirement', suite: 'beta' });
  });

  it('takes a bare case ID and a suite-qualified one as the same case', () => {
    expect(baselineTarget('second-case', suites)).toEqual({ kind: 'case', suite: 'beta', caseId: 'second-case', missing: false });
    expect(baselineTarget('beta/second-case', suites)).toEqual({ kind: 'case', suite: 'beta', caseId: 'second-case', missing: false });
  });

  it('marks a suite-qualified case missing only when that suite is given and lacks it', () => {
    expect(baselineTarget('alpha/no-such-case', suites)).toEqual({ kind: 'case', suite: 'alpha', caseId: 'no-such-case', missing: true });
    expect(baselineTarget('gamma/any-case', suites)).toEqual({ kind: 'case', suite: 'gamma', caseId: 'any-case', missing: false });
  });

  it('calls a bare ID that no suite has unknown', () => {
    expect(baselineTarget('ALPHA-TWO', suites)).toEqual({ kind: 'unknown' });
    expect(baselineTarget('no-such-case', suites)).toEqual({ kind: 'unknown' });
  });
});
