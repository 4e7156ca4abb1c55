import { describe, expect, it } from 'vitest';
import { transferable } from '../../src/targets/exec-wire.js';

describe('buffers handed over', () => {
  it('are transferred only when the bytes are all of their memory', () => {
    const own = new Uint8Array(8);
    expect(transferable(own)).toEqual([own.buffer]);
    expect(transferable(own.subarray(2))).toEqual([]);
    // Node's pool of small Buffers is shared: never handed away
    expect(transferable(Buffer.from('small'))).toEqual([]);
    expect(transferable(new Uint8Array(0))).toEqual([]);
  });
});
