import { describe, expect, it } from 'vitest';
import { parseSides } from '../../cli/side-choice.js';

describe('--side', () => {
  it('a bare side name applies to every suite of the run', () => {
    expect(parseSides(['server'], ['oauth', 'events'])).toEqual({ oauth: 'server', events: 'server' });
  });

  it('suite=side names one suite, and wins over a bare name for that suite', () => {
    expect(parseSides(['oauth=client'], ['oauth', 'plugin'])).toEqual({ oauth: 'client' });
    expect(parseSides(['server', 'plugin=compiler'], ['oauth', 'plugin'])).toEqual({ oauth: 'server', plugin: 'compiler' });
    expect(parseSides(['plugin=compiler', 'server'], ['oauth', 'plugin'])).toEqual({ plugin: 'compiler', oauth: 'server' });
  });

  it('refuses two sides for one suite, a suite the run does not select, and a half-written pair', () => {
    expect(() => parseSides(['server', 'client'], ['oauth'])).toThrow('--side server and --side client: a run judges one side of a suite; give one, or name each suite (--side <suite>=<side>)');
    expect(() => parseSides(['oauth=server', 'oauth=client'], ['oauth'])).toThrow(/gives suite oauth two sides \(server and client\)/);
    expect(() => parseSides(['plugin=compiler'], ['oauth'])).toThrow('--side plugin=compiler names suite plugin, which this run does not select (it runs oauth); add it to --suite or drop it from --side');
    expect(() => parseSides(['oauth='], ['oauth'])).toThrow(/write a side name/);
  });

  it('the same side given twice is one choice', () => {
    expect(parseSides(['server', 'server', 'oauth=server', 'oauth=server'], ['oauth'])).toEqual({ oauth: 'server' });
  });
});
