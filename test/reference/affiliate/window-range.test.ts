import { describe, expect, it } from 'vitest';
import { windowRange } from '../../../reference/affiliate/model/window-range.js';

const at = (ms: number): { t: number } => ({ t: ms });
const timeOf = (x: { t: number }): number => x.t;

describe('windowRange', () => {
  it('bounds an ordered list to the records of the window, both ends inclusive', () => {
    const items = [1, 2, 2, 3, 5, 8].map(at);
    expect(windowRange(items, timeOf, 2, 5)).toEqual({ from: 1, to: 5 });
    expect(windowRange(items, timeOf, 4, 4)).toEqual({ from: 4, to: 4 });
    expect(windowRange(items, timeOf, 9, 20)).toEqual({ from: 6, to: 6 });
  });

  it('searches a list out of order whole, also when it was in order before a record was added', () => {
    const items = [1, 5, 3].map(at);
    expect(windowRange(items, timeOf, 4, 6)).toEqual({ from: 0, to: 3 });
    const growing = [1, 2, 3].map(at);
    expect(windowRange(growing, timeOf, 2, 2)).toEqual({ from: 1, to: 2 });
    growing.push(at(0));
    expect(windowRange(growing, timeOf, 2, 2)).toEqual({ from: 0, to: 4 });
  });
});
