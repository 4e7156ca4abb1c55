import { describe, expect, it } from 'vitest';
import { neutralNames, renameSegments } from '../../../src/engine/api/path-names.js';

describe('renameSegments', () => {
  const names = { accessibleprofileaccounts: 'accessiblebrandaccounts' };

  it('replaces whole path segments only, keeping origin and query', () => {
    expect(renameSegments('http://127.0.0.1:9/v1/7/accessibleprofileaccounts?x=accessibleprofileaccounts', names)).toBe('http://127.0.0.1:9/v1/7/accessiblebrandaccounts?x=accessibleprofileaccounts');
    expect(renameSegments('/v1/accessibleprofileaccountsX/accessibleprofileaccounts', names)).toBe('/v1/accessibleprofileaccountsX/accessiblebrandaccounts');
  });

  it('leaves a URL alone when there is nothing to rename', () => {
    expect(renameSegments('http://h/a/b#c', {})).toBe('http://h/a/b#c');
    expect(renameSegments('http://h/a/b', names)).toBe('http://h/a/b');
  });

  it('maps back with the reverse names', () => {
    const back = neutralNames(names);
    expect(renameSegments(renameSegments('/p/accessibleprofileaccounts', names), back)).toBe('/p/accessibleprofileaccounts');
  });
});
