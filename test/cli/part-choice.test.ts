import { describe, expect, it } from 'vitest';
import { parseParts } from '../../cli/part-choice.js';

describe('--part', () => {
  it('a bare part applies to every suite of the run; suite=part and suite:part to one; parts add up once each', () => {
    expect(parseParts(['platform'], ['events', 'oauth'])).toEqual({ events: ['platform'], oauth: ['platform'] });
    expect(parseParts(['events=platform', 'events:monitoring', 'events=platform'], ['events', 'oauth'])).toEqual({ events: ['platform', 'monitoring'] });
  });

  it('a suite the run does not select, or an empty name, is a usage error saying what to write', () => {
    expect(() => parseParts(['merchant=api'], ['events'])).toThrow(/--part merchant=api names suite merchant, which this run does not select \(it runs events\)/);
    expect(() => parseParts(['events='], ['events'])).toThrow(/--part events=: write a part name \(--part platform\) or a suite and its part/);
  });
});
