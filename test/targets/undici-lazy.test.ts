import { describe, expect, it } from 'vitest';
import * as imported from 'undici';
import { undici } from '../../src/targets/undici-lazy.js';

describe('undici, loaded at its first use', () => {
  it('is the package an import gets: its error classes are the same ones', () => {
    const lib = undici();
    expect(lib).toBe(undici());
    expect(lib.Agent).toBe(imported.Agent);
    expect(new lib.errors.RequestAbortedError()).toBeInstanceOf(imported.errors.RequestAbortedError);
  });
});
