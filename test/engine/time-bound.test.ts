import { describe, expect, it } from 'vitest';
import type { CaseDef, Step } from '../../src/engine/model.js';
import { isTimeBound } from '../../src/engine/time-bound.js';

const caseOf = (steps: unknown[], tags?: string[]): CaseDef => ({ id: 'c', requirements: ['R-1'], steps: steps as Step[], location: { file: 'cases.yaml', line: 1, column: 1 }, ...(tags ? { tags } : {}) });

describe('isTimeBound', () => {
  it('is a case tagged time-bound, or one with a step that waits or repeats with a wait', () => {
    expect(isTimeBound(caseOf([{ request: { url: 'http://127.0.0.1/' } }], ['time-bound']))).toBe(true);
    expect(isTimeBound(caseOf([{ wait: { seconds: 5 } }]))).toBe(true);
    expect(isTimeBound(caseOf([{ request: { url: 'http://127.0.0.1/' }, repeat: { max: 3, wait: 1000 } }]))).toBe(true);
  });

  it('is not a case whose steps let no time pass', () => {
    expect(isTimeBound(caseOf([{ request: { url: 'http://127.0.0.1/' } }], ['slow']))).toBe(false);
    expect(isTimeBound(caseOf([{ request: { url: 'http://127.0.0.1/' }, repeat: { max: 3, wait: 0 } }]))).toBe(false);
    expect(isTimeBound(caseOf([{ request: { url: 'http://127.0.0.1/' }, repeat: 3 }]))).toBe(false);
  });
});
