import { describe, expect, it } from 'vitest';
import { suitesNeeded } from '../../cli/main.js';
import { fromRoot } from '../../src/paths.js';

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

  it('for validate, the built-in suites whose folders hold every file it checks', () => {
    expect(suitesNeeded(['validate', fromRoot('suites', 'plugin', 'requirements.yaml')])).toEqual(['plugin']);
    expect(suitesNeeded(['validate', '--part', 'platform', fromRoot('suites', 'events', 'cases', 'x.yaml'), fromRoot('suites', 'oauth', 'suite.yaml')])).toEqual(['events', 'oauth']);
    // a profile, a baseline or kept cases anywhere else may name any suite: all are loaded
    expect(suitesNeeded(['validate', fromRoot('suites', 'plugin', 'suite.yaml'), 'profile.yaml'])).toBeUndefined();
    expect(suitesNeeded(['validate', fromRoot('suites', 'no-such-suite', 'suite.yaml')])).toBeUndefined();
    // the suites folder itself is no suite's file
    expect(suitesNeeded(['validate', fromRoot('suites', 'plugin')])).toBeUndefined();
    expect(suitesNeeded(['validate', fromRoot('suites', 'plugin', 'suite.yaml'), '--help'])).toBeUndefined();
    expect(suitesNeeded(['validate'])).toBeUndefined();
  });
});
