import { describe, expect, it } from 'vitest';
import { checkVersions, installedSuiteVersion } from '../../cli/merge-versions.js';
import type { ReadReport } from '../../cli/results-file.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';

const modules: SuiteModule[] = [
  { name: 'builtin', dir: '/b' },
  { name: 'outside', dir: '/o', version: '2.1.0' },
];

const report = (file: string, version: string, suites: [string, string][]): ReadReport => ({
  file,
  version,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  seed: 1,
  strict: false,
  stricter: false,
  suites: suites.map(([name, v]) => ({ name, target: 't', durationMs: 1, properties: {}, version: v, catalog: [], cases: [] })),
});

describe('installedSuiteVersion', () => {
  it('is the suite\'s own version, or specgate\'s for a suite that declares none', () => {
    expect(installedSuiteVersion(modules[0] as SuiteModule, '1.0.0')).toBe('1.0.0');
    expect(installedSuiteVersion(modules[1] as SuiteModule, '1.0.0')).toBe('2.1.0');
  });
});

describe('checkVersions', () => {
  it('lets through reports of this specgate and these suites', () => {
    expect(checkVersions([report('a.json', '1.0.0', [['builtin', '1.0.0'], ['outside', '2.1.0']])], modules, false, '1.0.0')).toEqual([]);
  });

  it('refuses a report of another specgate version and one of another suite version, naming each file', () => {
    const run = (): string[] => checkVersions([report('old.json', '0.9.0', [['builtin', '0.9.0']]), report('new.json', '1.0.0', [['outside', '3.0.0']])], modules, false, '1.0.0');
    expect(run).toThrow(/old\.json was written by specgate 0\.9\.0, and this is specgate 1\.0\.0/);
    expect(run).toThrow(/old\.json holds results of suite builtin version 0\.9\.0, and the installed one is version 1\.0\.0/);
    expect(run).toThrow(/new\.json holds results of suite outside version 3\.0\.0, and the installed one is version 2\.1\.0: rerun those parts .* or give --allow-version-mix/);
  });

  it('with --allow-version-mix, warns of each difference instead', () => {
    const warnings = checkVersions([report('old.json', '0.9.0', [['outside', '2.1.0']])], modules, true, '1.0.0');
    expect(warnings).toEqual(['old.json was written by specgate 0.9.0, and this is specgate 1.0.0: merged anyway (--allow-version-mix); the installed catalog decides levels, texts and which cases and requirements exist']);
  });
});
