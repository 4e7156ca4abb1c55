import { describe, expect, it } from 'vitest';
import type { CaseDef } from '../../src/engine/model.js';
import { casesRestingOn, restingOn, restsOn } from './suite-facts.js';

const at = { file: 'cases.yaml', line: 1, column: 1 };
const check = (precondition?: string): CaseDef['steps'][number] => ({ check: 'x.y', ...(precondition ? { precondition } : {}) });
const kase = (id: string, requirements: string[], more: Partial<CaseDef> = {}): CaseDef => ({ id, requirements, steps: [check()], location: at, ...more });

describe('what rests on a requirement, read from the cases', () => {
  const cases = [
    kase('root', ['ROOT']),
    kase('assumes', ['A'], { assumes: ['ROOT'] }),
    kase('owned-step', ['B', 'ROOT'], { steps: [check('ROOT'), check()] }),
    // C is judged by one case that rests on ROOT and one that does not
    kase('c-resting', ['C'], { assumes: ['ROOT', 'OTHER'] }),
    kase('c-alone', ['C']),
    kase('other', ['D'], { assumes: ['OTHER'] }),
  ];

  it('a case rests on a rule it assumes or whose step it owns', () => {
    expect(cases.filter((c) => restsOn(c, 'ROOT')).map((c) => c.id)).toEqual(['assumes', 'owned-step', 'c-resting']);
    expect(casesRestingOn(cases, 'ROOT')).toEqual(['assumes', 'owned-step', 'c-resting']);
  });

  it('a requirement rests wholly on it when every case that covers it does; the rule itself never does', () => {
    expect(restingOn(cases, 'ROOT')).toEqual(['A', 'B']);
    expect(restingOn(cases, 'OTHER')).toEqual(['D']);
    expect(restingOn(cases, 'NOBODY')).toEqual([]);
  });
});
