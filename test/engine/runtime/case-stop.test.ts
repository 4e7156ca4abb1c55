import { describe, expect, it } from 'vitest';
import { CaseStop } from '../../../src/engine/runtime/case-stop.js';

describe('CaseStop', () => {
  it('aborts a signal made before the stop, with the reason', () => {
    const stop = new CaseStop();
    const signal = stop.signal;
    expect(signal.aborted).toBe(false);
    const reason = { code: 'X' };
    stop.stop(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(stop.signal).toBe(signal);
  });

  it('makes a signal asked for after the stop already aborted, with the same reason', () => {
    const stop = new CaseStop();
    const reason = new Error('case finished');
    stop.stop(reason);
    expect(stop.stopped).toBe(true);
    expect(stop.signal.aborted).toBe(true);
    expect(stop.signal.reason).toBe(reason);
  });

  it('stops once: a later stop changes neither the reason nor calls the listeners again', () => {
    const stop = new CaseStop();
    const heard: unknown[] = [];
    const listener = (why: unknown): void => void heard.push(why);
    stop.onStop(listener);
    stop.onStop((why) => heard.push(`second ${String(why)}`));
    stop.stop('first');
    stop.stop('again');
    expect(heard).toEqual(['first', 'second first']);
    expect(stop.reason).toBe('first');
    expect(stop.signal.reason).toBe('first');
  });

  it('does not call a listener taken off before the stop, nor one added after it', () => {
    const stop = new CaseStop();
    const heard: string[] = [];
    const off = (): void => void heard.push('off');
    stop.onStop(off);
    stop.offStop(off);
    stop.stop('now');
    stop.onStop(() => heard.push('late'));
    expect(heard).toEqual([]);
  });
});
