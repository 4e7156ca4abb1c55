import { describe, expect, it } from 'vitest';
import { SpecgateError } from '../../src/errors.js';
import { fromWire, toWire } from '../../src/targets/thread-error.js';

/** What a message to or from a worker thread carries: a structured clone. */
const crossed = <T>(v: T): T => structuredClone(v);

describe('errors between threads', () => {
  it('keep a SpecgateError\'s class, code, message, detail and cause', () => {
    const cause = Object.assign(new Error('spawn /x ENOENT'), { code: 'ENOENT', errno: -2, syscall: 'spawn /x', path: '/x' });
    const sent = new SpecgateError('SG_TARGET_UNREACHABLE', 'the executable /x was not found', { command: '/x', errorCode: 'ENOENT' }, { cause });
    const back = fromWire(crossed(toWire(sent)));
    expect(back).toBeInstanceOf(SpecgateError);
    expect(back).toMatchObject({ code: 'SG_TARGET_UNREACHABLE', message: sent.message, detail: { command: '/x', errorCode: 'ENOENT' } });
    expect(back.stack).toBe(sent.stack);
    expect(back.cause).toBeInstanceOf(Error);
    expect(back.cause).toMatchObject({ message: 'spawn /x ENOENT', code: 'ENOENT', errno: -2, syscall: 'spawn /x', path: '/x' });
  });

  it('keep another error\'s name and message, and say what a thrown non-error was', () => {
    const back = fromWire(crossed(toWire(new TypeError('bad'))));
    expect(back).not.toBeInstanceOf(SpecgateError);
    expect([back.name, back.message]).toEqual(['TypeError', 'bad']);
    expect(fromWire(crossed(toWire('plain')))).toMatchObject({ name: 'Error', message: 'plain' });
  });
});
