import { expect } from 'vitest';
import { SpecgateError } from '../../src/errors.js';

/** Awaits a promise that must reject with a SpecgateError, and returns that error for further checks. */
export async function rejection(p: Promise<unknown>): Promise<SpecgateError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SpecgateError);
    return e as SpecgateError;
  }
  throw new Error('expected a rejection');
}
