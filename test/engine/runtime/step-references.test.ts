import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/engine/model.js';
import { referencesIn, stepReferences } from '../../../src/engine/runtime/step-references.js';

describe('stepReferences', () => {
  it('reads a request, its expectation and its repeat', () => {
    const step: Step = {
      request: { method: 'POST', url: '${auth_url}/token', form: { code: '${device_code}', list: ['${a}', 1] } },
      expect: { body: { interval: { $equals: '${interval + 5}' } } },
      repeat: { max: 3, wait: '${interval}' },
    };
    expect(stepReferences(step).slice().sort()).toEqual(['a', 'auth_url', 'device_code', 'interval']);
  });

  it('reads a check or agent step\'s arguments and a wait', () => {
    expect(stepReferences({ check: 'x.expect', with: { value: '${taken}', matches: false } })).toEqual(['taken']);
    expect(stepReferences({ agent: 'approve', with: { query: { user_code: '${user_code}' } } })).toEqual(['user_code']);
    expect(stepReferences({ wait: '${expires_in}' })).toEqual(['expires_in']);
  });

  it('finds nothing in literals, and nothing in text that does not parse', () => {
    expect(referencesIn({ a: 'plain', b: 5, c: null })).toEqual([]);
    expect(referencesIn('${')).toEqual([]);
  });
});
