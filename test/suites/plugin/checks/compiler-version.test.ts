import { describe, expect, it } from 'vitest';
import { versionLine } from '../../../../reference/plugin/driver.js';
import { parsePrintedVersion, versionDifferences } from '../../../../suites/plugin/checks/compiler-version.js';

/** Reading a compiler's --version line and comparing it with the compiler_version it sends. */
describe('compiler version as printed and as sent', () => {
  it('reads three numbers, two numbers, and a release-candidate suffix', () => {
    expect(parsePrintedVersion('libprotoc 3.21.12\n')).toEqual({ text: '3.21.12', numbers: [3, 21, 12], suffix: '' });
    expect(parsePrintedVersion('libprotoc 25.1')).toMatchObject({ numbers: [25, 1], suffix: '' });
    expect(parsePrintedVersion('libprotoc 3.21.0-rc2')).toMatchObject({ numbers: [3, 21, 0], suffix: 'rc2' });
    expect(parsePrintedVersion(versionLine({ major: 1, minor: 2, patch: 3, suffix: 'alpha-1' }))).toMatchObject({ numbers: [1, 2, 3], suffix: 'alpha-1' });
    expect(parsePrintedVersion('usage: compiler [options]')).toBeUndefined();
  });

  it('agrees with the version sent only when every part matches', () => {
    const printed = parsePrintedVersion('libprotoc 3.21.12');
    if (!printed) throw new TypeError('no version read');
    expect(versionDifferences({ major: 3, minor: 21, patch: 12, suffix: '' }, printed)).toEqual([]);
    expect(versionDifferences({ major: 3, minor: 21, patch: 12 }, printed)).toEqual([]);
    expect(versionDifferences({ major: 3, minor: 21, patch: 11, suffix: '' }, printed)).toHaveLength(1);
    expect(versionDifferences({ major: 3, minor: 21, patch: 12, suffix: 'rc1' }, printed)).toEqual(['suffix is "rc1", the compiler prints a stable release (no suffix)']);
    expect(versionDifferences({ minor: 21, patch: 12 }, printed)).toEqual(['major is (absent, 0), the compiler prints 3']);
  });

  it('compares minor and patch for a compiler that prints two numbers, and suffixes with or without a hyphen', () => {
    const two = parsePrintedVersion('libprotoc 25.1');
    const rc = parsePrintedVersion('libprotoc 3.21.0-rc2');
    if (!two || !rc) throw new TypeError('no version read');
    expect(versionDifferences({ major: 4, minor: 25, patch: 1, suffix: '' }, two)).toEqual([]);
    expect(versionDifferences({ major: 4, minor: 25, patch: 2, suffix: '' }, two)).toHaveLength(1);
    expect(versionDifferences({ major: 3, minor: 21, patch: 0, suffix: '-rc2' }, rc)).toEqual([]);
    expect(versionDifferences({ major: 3, minor: 21, patch: 0, suffix: '' }, rc)).toHaveLength(1);
  });
});
