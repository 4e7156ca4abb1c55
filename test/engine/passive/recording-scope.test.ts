import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { CaseDef, LoadedSuite } from '../../../src/engine/model.js';
import type { PassiveRule } from '../../../src/engine/passive/passive-rules.js';
import { recordingScope } from '../../../src/engine/passive/recording-scope.js';
import { writePassiveListing } from '../../../cli/passive-listing.js';

const TABLE: ApiTable = {
  suite: 'mini',
  base: '${api_url}',
  wrongMethodStatus: 405,
  goneStatus: 404,
  params: {},
  operations: [{ id: 'getNote', method: 'GET', path: '/notes/{id}', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } }],
  resources: {},
  schemas: {},
  file: 'api.yaml',
};
const at = { file: 'cases.yaml', line: 1, column: 1 };

const CASES: CaseDef[] = [
  // judges single exchanges: settles its requirements, a step's own requirement only that one
  { id: 'served', requirements: ['R-SERVED', 'R-STEP'], steps: [{ check: 'api.served', with: { operation: 'getNote' } }, { check: 'api.schema', with: { operation: 'getNote', requirement: 'R-STEP' } }], location: at },
  // opted in: its requests stand for recorded ones
  { id: 'opted', requirements: ['R-OPTED'], passive: 'judge', steps: [{ request: { operation: 'getNote', params: { id: '1' } }, expect: { status: 200 } }], location: at },
  // a request of its own choosing, not opted in: live only
  { id: 'live', requirements: ['R-LIVE'], steps: [{ check: 'api.served', with: { operation: 'getNote', params: { id: '7' } } }], location: at },
  // skipped, whatever its steps
  { id: 'skipped', requirements: ['R-SKIPPED'], skip: 'not yet', passive: 'judge', steps: [{ request: { operation: 'getNote' } }], location: at },
  { id: 'should', requirements: ['R-SHOULD'], steps: [{ check: 'api.served', with: { operation: 'getNote' } }], location: at },
];
const RULES: Record<string, PassiveRule> = { polls: { description: 'the polls', requirements: ['R-RULED'], judge: () => [] } };
const must = (id: string, extra: Partial<LoadedSuite['requirements'][number]> = {}): LoadedSuite['requirements'][number] => ({ id, level: 'MUST', source: 's#x', text: id, ...extra });
const SUITE: LoadedSuite = {
  name: 'mini',
  dir: '/nowhere',
  api: TABLE,
  cases: CASES,
  requirements: [must('R-SERVED'), must('R-STEP'), must('R-OPTED'), must('R-LIVE'), must('R-SKIPPED'), must('R-RULED'), must('R-EXCLUDED', { excluded: 'not shown' }), must('R-SHOULD', { level: 'SHOULD' })],
};

describe('what a recording can settle of a suite', () => {
  it('counts the gating requirements a case judging single exchanges, an opted-in case or a passive rule settles', () => {
    const scope = recordingScope(SUITE, RULES);
    // MUST, not excluded, covered by a case or a rule
    expect(scope?.gating).toEqual(['R-SERVED', 'R-STEP', 'R-OPTED', 'R-LIVE', 'R-SKIPPED', 'R-RULED']);
    expect(Object.fromEntries(scope?.settledBy ?? [])).toEqual({
      'R-SERVED': [{ kind: 'exchange-case', id: 'served' }],
      'R-STEP': [{ kind: 'exchange-case', id: 'served' }],
      'R-OPTED': [{ kind: 'opted-in-case', id: 'opted' }],
      'R-RULED': [{ kind: 'rule', id: 'passive:polls' }],
    });
  });

  it('does not count an opted-in case whose steps a recording cannot stand for (the passive run skips it)', () => {
    const expr: CaseDef = { id: 'expr', requirements: ['R-EXPR'], passive: 'judge', steps: [{ check: 'api.served', with: { operation: '${op}' } }], location: at };
    const plain: CaseDef = { ...expr, id: 'plain', requirements: ['R-PLAIN'], steps: [{ check: 'api.served', with: { operation: 'getNote' } }] };
    const scope = recordingScope({ ...SUITE, cases: [expr, plain], requirements: [must('R-EXPR'), must('R-PLAIN')] });
    expect(scope?.gating).toEqual(['R-EXPR', 'R-PLAIN']);
    expect(Object.fromEntries(scope?.settledBy ?? [])).toEqual({ 'R-PLAIN': [{ kind: 'opted-in-case', id: 'plain' }] });
  });

  it('is undefined for a suite without an API table', () => {
    expect(recordingScope({ ...SUITE, api: undefined } as unknown as LoadedSuite, RULES)).toBeUndefined();
  });

  it('`list --passive` writes the counts, what settles each requirement and what needs live requests; --json the same as data', () => {
    let text = '';
    const out = { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream;
    const module = { name: 'mini', passiveRules: RULES } as unknown as Parameters<typeof writePassiveListing>[1][number];
    writePassiveListing([SUITE, { ...SUITE, name: 'bare', api: undefined } as unknown as LoadedSuite], [module], false, out);
    expect(text.split('\n')).toEqual([
      'mini: a recording can settle 4 of 6 gating requirements (MUST)',
      '  2 by cases judging single exchanges, 1 by cases that opted in (passive: judge), 1 by passive rules',
      '    R-SERVED — served',
      '    R-STEP — served',
      '    R-OPTED — opted',
      '    R-RULED — passive:polls',
      '  need live requests (2): R-LIVE, R-SKIPPED',
      'bare: cannot be judged from a recording (it has no API table, api.yaml)',
      '',
    ]);
    text = '';
    writePassiveListing([SUITE], [module], true, out);
    expect(JSON.parse(text)).toEqual([{ name: 'mini', judgedFromRecording: true, gating: 6, settles: 4, requirements: expect.arrayContaining([{ id: 'R-OPTED', settledBy: [{ kind: 'opted-in-case', id: 'opted' }] }]), needsLive: ['R-LIVE', 'R-SKIPPED'] }]);
  });
});
