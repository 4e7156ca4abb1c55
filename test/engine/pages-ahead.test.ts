import { describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import { loadSuites } from '../../src/engine/load-suites.js';
import { casesVisitPages } from '../../src/engine/pages-ahead.js';
import { tempSuite } from '../helpers/temp-suite.js';

describe('whether a run will open pages', () => {
  const check = (visitsPages: boolean) => defineCheck({ description: 'd', args: { type: 'object' }, judges: 'case', ...(visitsPages ? { visitsPages } : {}), run: async () => undefined });
  const module = tempSuite(
    'p',
    {
      requirements: '- { id: P-A, level: MUST, source: "s.txt#A", text: a }\n',
      cases: '- id: looks\n  requirements: [P-A]\n  steps:\n    - check: p.look\n- id: counts\n  requirements: [P-A]\n  steps:\n    - check: p.count\n',
    },
    { look: check(true), count: check(false) },
  );

  it('is true when a selected case calls a check that visits pages against a live target, and only then', () => {
    const { registry, suites } = loadSuites([module], ['p']);
    const suite = suites[0];
    if (!suite) throw new Error('suite p did not load');
    const only = (id: string) => [{ suite, cases: suite.cases.filter((c) => c.id === id) }];
    expect(casesVisitPages(only('looks'), registry, () => false)).toBe(true);
    expect(casesVisitPages(only('counts'), registry, () => false)).toBe(false);
    // a recording is judged without a browser
    expect(casesVisitPages(only('looks'), registry, () => true)).toBe(false);
  });
});
