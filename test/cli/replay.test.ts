import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../cli/replay.js';
import { splitCommand } from '../e2e/shell-words.js';

const argv = (...args: string[]): string[] => ['/usr/bin/node', '/opt/specgate/bin/specgate.js', ...args];

describe('replayCommand', () => {
  it('keeps the target options, names the one case, the run seed and the path', () => {
    const cmd = replayCommand(argv('run', '--suite-module', 'dist/demo.js', '--target', 'vendor.yaml', '--strict'), 'demo', 'double-property', 4242, '2:3:1:0');
    expect(cmd).toBe('specgate run --suite-module dist/demo.js --target vendor.yaml --strict --suite demo --case double-property --seed 4242 --path 2:3:1:0');
  });

  it('drops what a replay replaces or must not repeat: suites, cases, seed, path, runs, reports, baseline, concurrency', () => {
    const cmd = replayCommand(
      argv('run', '--suite', 'a,b', '--case', 'x', '--seed', '1', '--path', '9:9', '--runs', '5', '--report', 'junit=r.xml', '--report=json=r.json', '--baseline', 'b.yaml', '--concurrency', '2', '--target', 't.yaml'),
      'a',
      'c',
      7,
    );
    expect(cmd).toBe('specgate run --target t.yaml --suite a --case c --seed 7');
  });

  it('drops --suite=x and --case=y written with "="', () => {
    expect(replayCommand(argv('run', '--suite=demo', '--case=x,y', '--target=t.yaml'), 'demo', 'x', 3)).toBe('specgate run --target=t.yaml --suite demo --case x --seed 3');
  });

  it('keeps flags that take no value where they were, without eating the next option', () => {
    const cmd = replayCommand(argv('run', '--include-slow', '--target', 't.yaml', '--verbose', '--no-color', '--case-timeout', '500'), 's', 'c', 1);
    expect(cmd).toBe('specgate run --include-slow --target t.yaml --verbose --no-color --case-timeout 500 --suite s --case c --seed 1');
  });

  it('keeps suite target flags (e.g. --plugin <exe>)', () => {
    expect(replayCommand(argv('run', '--plugin', './protoc-gen-x'), 'plugin', 'c', 1)).toBe('specgate run --plugin ./protoc-gen-x --suite plugin --case c --seed 1');
  });

  it('a bare `specgate run` still replays', () => {
    expect(replayCommand(argv('run'), 'demo', 'c', 0)).toBe('specgate run --suite demo --case c --seed 0');
  });

  it('without a path (no property) there is no --path', () => {
    expect(replayCommand(argv('run'), 'demo', 'c', 5)).not.toContain('--path');
  });

  it('quotes what the shell would split or expand', () => {
    const cmd = replayCommand(argv('run', '--target', "my profiles/it's $HOME.yaml"), 'demo', 'c', 1);
    expect(cmd).toBe(`specgate run --target 'my profiles/it'\\''s $HOME.yaml' --suite demo --case c --seed 1`);
  });

  it('every option value survives the shell: splitting the command gives the same words back', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((s) => !s.startsWith('--')), fc.nat(), (value, seed) => {
        const words = splitCommand(replayCommand(argv('run', '--target', value), 'demo', 'c', seed));
        expect(words).toEqual(['specgate', 'run', '--target', value, '--suite', 'demo', '--case', 'c', '--seed', String(seed)]);
      }),
      { seed: 20240601, numRuns: 300 },
    );
  });
});
