/**
 * bench/plugin-suite.ts: the median its figures are made of. (The benchmark itself runs the
 * whole suite several times and belongs to `npm run bench`, not to the tests.)
 */
import { describe, expect, it } from 'vitest';
import { median } from '../../bench/plugin-suite.js';

describe('median', () => {
  it('gives the middle value of an odd sample and the mean of the two middle values of an even one, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is not moved by one wild round', () => {
    expect(median([3.1, 3.0, 3.2, 30, 3.05, 3.15, 3.12])).toBe(3.12);
  });

  it('is NaN for no rounds', () => {
    expect(median([])).toBeNaN();
  });
});
