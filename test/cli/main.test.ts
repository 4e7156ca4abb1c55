import { describe, expect, it } from 'vitest';
import { suitesNeeded } from '../../cli/main.js';

/**
 * Which built-in suites a command line loads (cli/main.ts): only what it names, so `--version`,
 * `list --suite x` and `run --suite x` do not load every suite's checks, reference and
 * generators. The end-to-end side (a target flag of an unloaded suite still gets the answer a
 * full load gives) is in test/e2e/commands.test.ts.
 */
describe('the suites a command line needs', () => {
  it('none for the version and the top-level help', () => {
    expect(suitesNeeded(['--version'])).toEqual([]);
    expect(suitesNeeded(['-V'])).toEqual([]);
    expect(suitesNeeded(['record', '--upstream', 'http://127.0.0.1:1', '--har', 'x.har'])).toEqual([]);
    expect(suitesNeeded(['--help'])).toEqual([]);
    expect(suitesNeeded([])).toEqual([]);
  });

  it('those of --suite for run and list, in every spelling', () => {
    expect(suitesNeeded(['run', '--suite', 'plugin'])).toEqual(['plugin']);
    expect(suitesNeeded(['run', '--suite', 'plugin,oauth', '--seed', '7'])).toEqual(['plugin', 'oauth']);
    expect(suitesNeeded(['list', '--suite=events', '--suite', 'merchant'])).toEqual(['events', 'merchant']);
  });

  it('all when the command line does not name them, or asks for a command\'s help (it lists every target flag)', () => {
    expect(suitesNeeded(['run'])).toBeUndefined();
    expect(suitesNeeded(['run', '--target', 'profile.yaml'])).toBeUndefined();
    expect(suitesNeeded(['run', '--suite', 'plugin', '--help'])).toBeUndefined();
    expect(suitesNeeded(['merge', 'a.json'])).toBeUndefined();
    expect(suitesNeeded(['serve', 'oauth'])).toBeUndefined();
    expect(suitesNeeded(['help', 'run'])).toBeUndefined();
    // after --, words are not options
    expect(suitesNeeded(['run', '--', '--suite', 'plugin'])).toBeUndefined();
  });
});
