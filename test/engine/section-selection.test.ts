import { describe, expect, it } from 'vitest';
import type { LoadedSuite, Requirement } from '../../src/engine/model.js';
import { runSelections, sectionSelection, selectLabel, selectProblems } from '../../src/engine/section-selection.js';
import type { TargetSection } from '../../src/targets/target-section.js';

const req = (id: string): Requirement => ({ id, level: 'MUST', source: 's.txt#S', text: `${id} text` });

const suite: Pick<LoadedSuite, 'name' | 'requirements' | 'parts'> = {
  name: 'ev',
  requirements: [req('EV-MON-A'), req('EV-PLAT-A'), req('EV-PLAT-B'), req('EV-CLIENT-A')],
  parts: {
    monitoring: { description: 'G. the monitoring API', requirements: ['EV-MON-*'] },
    platform: { description: 'H. the platform', requirements: ['EV-PLAT-*'] },
  },
};

const section = (select?: TargetSection['select']): TargetSection => ({ vars: {}, ...(select ? { select } : {}) });

describe("a profile section's select:", () => {
  it('selects as --part and --requirement do, labelled as the profile writes it', () => {
    expect(sectionSelection(suite, { parts: ['platform'], requirements: ['!EV-PLAT-B'] })).toEqual({ label: "the profile's select: part platform; requirement !EV-PLAT-B", requirements: ['EV-PLAT-A'] });
    expect(sectionSelection(suite, { requirements: ['EV-MON-A', 'EV-CLIENT-*'] })).toEqual({ label: "the profile's select: requirements EV-MON-A, EV-CLIENT-*", requirements: ['EV-MON-A', 'EV-CLIENT-A'] });
    expect(selectLabel({ parts: ['monitoring', 'platform'] })).toBe("the profile's select: parts monitoring, platform");
  });

  it('an unknown part and a pattern that matches nothing are profile problems at the key, with the nearest names', () => {
    const problems = selectProblems(suite, { parts: ['platfrom', 'platform'], requirements: ['EV-PLAT-C', '!EV-NOPE-*', 'EV-MON-*'] }, 'p.yaml:7:5: ');
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['SG_CONFIG', 'p.yaml:7:5: suites.ev.select.parts names "platfrom": suite ev has no part "platfrom" (did you mean "platform"?); its parts: monitoring (G. the monitoring API), platform (H. the platform)'],
      ['SG_CONFIG', 'p.yaml:7:5: suites.ev.select.requirements: EV-PLAT-C matches no requirement of suite ev (did you mean EV-PLAT-A or EV-PLAT-B?); `specgate list --suite ev` lists its IDs'],
      ['SG_CONFIG', 'p.yaml:7:5: suites.ev.select.requirements: !EV-NOPE-* matches no requirement of suite ev; `specgate list --suite ev` lists its IDs'],
    ]);
    expect(selectProblems({ ...suite, parts: undefined }, { parts: ['platform'] }, '')[0]?.message).toBe('suites.ev.select.parts names "platform": suite ev declares no parts, so there is none to choose; select its requirements with select.requirements instead');
    expect(selectProblems(suite, { parts: ['monitoring'], requirements: ['EV-*'] }, '')).toEqual([]);
  });
});

describe('the selection of a run', () => {
  const recorded = (): TargetSection => section({ parts: ['platform'] });

  it('without a selection flag: the profile section\'s select:, and nothing set aside', () => {
    const { selections, notes } = runSelections([suite], {}, () => recorded());
    expect(selections.get('ev')).toEqual({ label: "the profile's select: part platform", requirements: ['EV-PLAT-A', 'EV-PLAT-B'] });
    expect(notes).toEqual([]);
    expect(runSelections([suite], {}, () => section()).selections.size).toBe(0);
    expect(runSelections([suite], {}, () => undefined).selections.size).toBe(0);
  });

  it('a flag wins over it, and says which select: it sets aside', () => {
    const byPart = runSelections([suite], { parts: { ev: ['monitoring'] } }, () => recorded());
    expect(byPart.selections.get('ev')).toEqual({ label: '--part monitoring', requirements: ['EV-MON-A'] });
    expect(byPart.notes).toEqual(["suite ev: --part on the command line chooses what this run judges; the profile's select: part platform is not used"]);
    const byCase = runSelections([suite], { cases: ['mon-a'] }, () => recorded());
    // --case alone selects no requirement here; the run narrows to what its cases cover
    expect(byCase.selections.size).toBe(0);
    expect(byCase.notes).toEqual(["suite ev: --case on the command line chooses what this run judges; the profile's select: part platform is not used"]);
    expect(runSelections([suite], { requirements: ['EV-MON-A'], cases: ['x'] }, () => recorded()).notes[0]).toMatch(/^suite ev: --requirement and --case on the command line choose /);
    expect(runSelections([suite], { requirements: ['EV-MON-A'] }, () => section()).notes).toEqual([]);
  });
});
