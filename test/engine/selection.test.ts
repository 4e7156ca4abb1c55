import { describe, expect, it } from 'vitest';
import { Baseline } from '../../src/engine/baseline.js';
import type { CaseResult, LoadedSuite, Requirement } from '../../src/engine/model.js';
import { caseSelection, casesOfSelection, suitesOfNamedCases, matchesPattern, partProblems, partRequirements, resolveSelection, selectionProblems } from '../../src/engine/selection.js';
import { judgedFraction, requirementVerdicts, summarize } from '../../src/engine/verdicts.js';

const req = (id: string, extra: Partial<Requirement> = {}): Requirement => ({ id, level: 'MUST', source: 's.txt#S', text: `${id} text`, ...extra });

/** Two APIs of one spec as parts, and a client requirement in neither. */
const suite: Pick<LoadedSuite, 'name' | 'requirements' | 'parts'> = {
  name: 'ev',
  requirements: [req('EV-MON-A'), req('EV-MON-B'), req('EV-PLAT-A'), req('EV-PLAT-B'), req('EV-PLAT-GONE', { excluded: 'not shown' }), req('EV-CLIENT-A')],
  parts: {
    monitoring: { description: 'G. the monitoring API', requirements: ['EV-MON-*'] },
    platform: { description: 'H. the platform', requirements: ['EV-PLAT-*'] },
  },
};

function result(id: string, requirements: string[], outcome: CaseResult['outcome'] = 'passed'): CaseResult {
  return { suite: 'ev', id, requirements, outcome, failures: [], exchanges: [], durationMs: 1 };
}

describe('requirement patterns', () => {
  it('a glob matches whole IDs: * any run of characters, ? one, nothing else is special', () => {
    expect(matchesPattern('EV-PLAT-*', 'EV-PLAT-A')).toBe(true);
    expect(matchesPattern('EV-PLAT-*', 'XEV-PLAT-A')).toBe(false);
    expect(matchesPattern('EV-?ON-A', 'EV-MON-A')).toBe(true);
    expect(matchesPattern('EV-MON-A', 'EV-MON-AB')).toBe(false);
    // a dot is a dot, not any character
    expect(matchesPattern('EV.MON-A', 'EV-MON-A')).toBe(false);
  });

  it('a part holds the requirements its globs match, in catalog order', () => {
    expect(partRequirements(suite, 'platform')).toEqual(['EV-PLAT-A', 'EV-PLAT-B', 'EV-PLAT-GONE']);
    expect(partRequirements(suite, 'nope')).toEqual([]);
  });
});

describe('resolving a selection', () => {
  it('selects nothing in particular without parts or patterns', () => {
    expect(resolveSelection(suite, {})).toBeUndefined();
    // parts chosen for another suite leave this one whole
    expect(resolveSelection(suite, { parts: { other: ['x'] } })).toBeUndefined();
  });

  it('a part, plus the requirements a pattern adds, labelled as the command line chose them', () => {
    expect(resolveSelection(suite, { parts: { ev: ['platform'] }, requirements: ['EV-MON-B'] })).toEqual({
      label: '--part platform --requirement EV-MON-B',
      requirements: ['EV-MON-B', 'EV-PLAT-A', 'EV-PLAT-B', 'EV-PLAT-GONE'],
    });
  });

  it('"!" leaves matches out: of the part, or of everything when nothing else is chosen', () => {
    expect(resolveSelection(suite, { parts: { ev: ['platform'] }, requirements: ['!EV-PLAT-B'] })?.requirements).toEqual(['EV-PLAT-A', 'EV-PLAT-GONE']);
    expect(resolveSelection(suite, { requirements: ['!EV-MON-*'] })?.requirements).toEqual(['EV-PLAT-A', 'EV-PLAT-B', 'EV-PLAT-GONE', 'EV-CLIENT-A']);
  });

  it('a case runs when it covers a selected requirement', () => {
    const selection = resolveSelection(suite, { parts: { ev: ['platform'] } });
    const cases = [{ id: 'mon', requirements: ['EV-MON-A'] }, { id: 'plat', requirements: ['EV-PLAT-A'] }, { id: 'both', requirements: ['EV-MON-B', 'EV-PLAT-B'] }];
    expect(casesOfSelection(cases, selection).map((c) => c.id)).toEqual(['plat', 'both']);
    expect(casesOfSelection(cases, undefined)).toHaveLength(3);
  });
});

describe('selection problems', () => {
  it('an unknown part is a usage error naming the parts the suite has, and the nearest', () => {
    const [problem, ...rest] = selectionProblems([suite], { parts: { ev: ['platfrom'] } });
    expect(rest).toEqual([]);
    expect(problem?.code).toBe('SG_USAGE');
    expect(problem?.message).toBe('--part platfrom: suite ev has no part "platfrom" (did you mean "platform"?); its parts: monitoring (G. the monitoring API), platform (H. the platform)');
  });

  it('a part of a suite that declares none says so', () => {
    const bare = { name: 'plain', requirements: [req('P-A')] };
    expect(selectionProblems([bare], { parts: { plain: ['x'] } })[0]?.message).toMatch(/^--part x: suite plain declares no parts, so there is none to choose; select its requirements with --requirement/);
  });

  it('a pattern that matches no requirement of any suite is a usage error; one that matches in some suite is not', () => {
    const other = { name: 'other', requirements: [req('O-A')] };
    expect(selectionProblems([suite, other], { requirements: ['O-*', 'EV-MON-A', '!EV-PLAT-A'] })).toEqual([]);
    const [problem] = selectionProblems([suite, other], { requirements: ['EV-NOPE-*'] });
    expect(problem?.code).toBe('SG_USAGE');
    expect(problem?.message).toContain('--requirement EV-NOPE-* matches no requirement of suites ev, other');
    expect(problem?.message).toContain('--part selects a whole part (ev: monitoring, platform)');
    expect(selectionProblems([suite], { requirements: ['EV-MON-C'] })[0]?.message).toContain('(did you mean EV-MON-A or EV-MON-B?)');
  });

  it("a suite's part whose glob matches nothing is a suite error at load", () => {
    expect(partProblems(suite.requirements, suite.parts as NonNullable<LoadedSuite['parts']>, 'suite.yaml')).toEqual([]);
    const [problem] = partProblems(suite.requirements, { stray: { requirements: ['EV-STRAY-*'] } }, 'suite.yaml');
    expect(problem?.code).toBe('SG_SUITE_SCHEMA');
    expect(problem?.message).toContain('part stray names requirements "EV-STRAY-*", which matches no requirement');
  });
});

describe('verdicts of a selection', () => {
  const loaded: LoadedSuite = { ...suite, dir: '/nowhere', cases: [] };
  const selection = resolveSelection(suite, { parts: { ev: ['platform'] } });

  it('outside the selection and covered by no case that ran: not selected, with how the run chose; excluded stays excluded', () => {
    const verdicts = requirementVerdicts(loaded, [result('plat-a', ['EV-PLAT-A']), result('plat-b', ['EV-PLAT-B'])], new Baseline(), undefined, selection);
    const by = Object.fromEntries(verdicts.map((v) => [v.id, v]));
    expect(by['EV-PLAT-A']?.status).toBe('passed');
    expect(by['EV-MON-A']).toMatchObject({ status: 'not-selected', reason: "outside this run's selection (--part platform)" });
    expect(by['EV-CLIENT-A']?.status).toBe('not-selected');
    expect(by['EV-PLAT-GONE']?.status).toBe('excluded');
  });

  it('a requirement outside the selection that a case which ran covers is judged as usual: what the case found is never hidden', () => {
    const failing: CaseResult = { ...result('both', ['EV-PLAT-A', 'EV-MON-A'], 'failed'), failures: [{ requirement: 'EV-MON-A', message: 'broken' }] };
    const by = Object.fromEntries(requirementVerdicts(loaded, [failing], new Baseline(), undefined, selection).map((v) => [v.id, v.status]));
    expect(by['EV-MON-A']).toBe('failed');
    expect(by['EV-PLAT-A']).toBe('passed');
    // selected, but no case covers it: still a gap of the selection
    expect(by['EV-PLAT-B']).toBe('untested');
  });

  it('not selected is neither untested nor in the judged fraction, and the verdict line counts it apart', () => {
    const verdicts = requirementVerdicts(loaded, [result('plat-a', ['EV-PLAT-A']), result('plat-b', ['EV-PLAT-B'])], new Baseline(), undefined, selection);
    expect(judgedFraction(verdicts, { strict: false, stricter: false })).toEqual({ gating: 2, judged: 2 });
    const summary = summarize([{ name: 'ev', target: 'reference', cases: [], requirements: verdicts, durationMs: 1, properties: {} }], { strict: false, stricter: false }, new Baseline(), 100);
    expect(summary.requirements).toMatchObject({ untested: 0, 'not-selected': 3, passed: 2 });
    expect(summary.exitCode).toBe(0);
    expect(summary.verdict).toBe('conformant at the gating level (MUST): judged 2 of 2 gating requirements (100%); 3 not selected in all');
  });
});

describe('a selection of named cases (--case)', () => {
  const loaded: LoadedSuite = { ...suite, dir: '/nowhere', cases: [] };
  const cases = [{ requirements: ['EV-PLAT-B'] }, { requirements: ['EV-MON-A', 'EV-PLAT-B'] }];

  it('selects what the named cases cover, in catalog order, labelled with the flag', () => {
    expect(caseSelection(suite, cases, undefined, ['plat-b', 'ev/both'])).toEqual({ label: '--case plat-b,ev/both', requirements: ['EV-MON-A', 'EV-PLAT-B'] });
  });

  it('within --part / --requirement, what both select, labelled with both', () => {
    const platform = resolveSelection(suite, { parts: { ev: ['platform'] } });
    expect(caseSelection(suite, cases, platform, ['both'])).toEqual({ label: '--part platform --case both', requirements: ['EV-PLAT-B'] });
  });

  it('a requirement only other cases cover, or none, is not selected (naming --case); one a named case covers is judged', () => {
    const selection = caseSelection(suite, [{ requirements: ['EV-PLAT-A'] }], undefined, ['plat-a']);
    const by = Object.fromEntries(requirementVerdicts(loaded, [result('plat-a', ['EV-PLAT-A'])], new Baseline(), undefined, selection).map((v) => [v.id, v]));
    expect(by['EV-PLAT-A']?.status).toBe('passed');
    expect(by['EV-PLAT-B']).toMatchObject({ status: 'not-selected', reason: "outside this run's selection (--case plat-a)" });
    expect(by['EV-CLIENT-A']?.status).toBe('not-selected');
    expect(by['EV-PLAT-GONE']?.status).toBe('excluded');
    expect(Object.values(by).filter((v) => v.status === 'untested')).toEqual([]);
  });

  it('a named case that errors leaves what it covers untested, never not selected', () => {
    const selection = caseSelection(suite, [{ requirements: ['EV-PLAT-A'] }], undefined, ['plat-a']);
    const by = Object.fromEntries(requirementVerdicts(loaded, [result('plat-a', ['EV-PLAT-A'], 'errored')], new Baseline(), undefined, selection).map((v) => [v.id, v.status]));
    expect(by['EV-PLAT-A']).toBe('untested');
  });
});

describe('the suites a run of named cases runs', () => {
  const at = { file: 'cases.yaml', line: 1, column: 1 };
  const ev = { name: 'ev', cases: [{ id: 'plat-a', requirements: ['EV-PLAT-A'], steps: [], location: at }] };
  const au = { name: 'au', cases: [{ id: 'login', requirements: ['AU-LOGIN'], steps: [], location: at }] };

  it('every suite without --case; the suites with a named case (id or suite/id)', () => {
    expect(suitesOfNamedCases([ev, au], [], true)).toEqual([ev, au]);
    expect(suitesOfNamedCases([ev, au], ['plat-a', 'au/login'], true)).toEqual([ev, au]);
  });

  it('refuses a suite the run named with none of its cases named, naming it and how to fix the command line', () => {
    expect(() => suitesOfNamedCases([ev, au], ['plat-a'], true)).toThrow(expect.objectContaining({ code: 'SG_USAGE', message: expect.stringMatching(/^suite au is selected \(--suite\) but --case plat-a names none of its cases, so it would judge nothing: drop it from --suite or name one of its cases in --case/) }));
  });

  it('leaves out such a suite when the run took its suites by default', () => {
    expect(suitesOfNamedCases([ev, au], ['plat-a'], false)).toEqual([ev]);
    expect(suitesOfNamedCases([ev, au], ['au/login'], false)).toEqual([au]);
  });
});
