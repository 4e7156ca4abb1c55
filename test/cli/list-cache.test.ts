import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepListings, keptListings, stampOf } from '../../cli/list-cache.js';
import type { SuiteListing } from '../../cli/suite-listing.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-list-cache-'));
// the listings of these throw-away folders stay out of the project's cache folder
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const listing = (name: string): SuiteListing => ({
  name,
  counts: '1 requirements, 1 cases',
  requirements: [{ id: 'R-1', level: 'MUST', source: 's.txt#1', text: 'a rule' }],
  cases: [{ id: 'one', requirements: ['R-1'], file: 'cases/one.yaml:1' }],
  checks: [],
  gaps: [],
});

/** A suite folder of its own, with a catalog and one case file; returns the folder. */
function suiteFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), '- id: R-1\n');
  writeFileSync(join(dir, 'cases', 'one.yaml'), '- id: one\n');
  return dir;
}

/** Keeps the listing of a suite as a complete load of it would. */
function keep(names: string[], dirs: string[]): void {
  keepListings(names, dirs, stampOf(dirs), names.map(listing));
}

describe('listings kept from a complete load (list-cache.ts)', () => {
  it('gives back what was kept for the same suites while their files are as they were', () => {
    const dir = suiteFolder('same');
    keep(['same'], [dir]);
    expect(keptListings(['same'])).toEqual([listing('same')]);
  });

  it('gives nothing for another set of suites loaded together, or another working directory', () => {
    const a = suiteFolder('a');
    const b = suiteFolder('b');
    keep(['a', 'b'], [a, b]);
    expect(keptListings(['a', 'b'])).toHaveLength(2);
    expect(keptListings(['a'])).toBeUndefined();
    const cwd = process.cwd();
    try {
      process.chdir(root);
      // a case's file is named from the working directory
      expect(keptListings(['a', 'b'])).toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
  });

  it('gives nothing once a file of a suite is written, added or removed', () => {
    const dir = suiteFolder('changed');
    keep(['changed'], [dir]);
    writeFileSync(join(dir, 'cases', 'one.yaml'), '- id: one\n  description: edited\n');
    expect(keptListings(['changed'])).toBeUndefined();

    keep(['changed'], [dir]);
    writeFileSync(join(dir, 'cases', 'two.yaml'), '- id: two\n');
    expect(keptListings(['changed'])).toBeUndefined();

    keep(['changed'], [dir]);
    rmSync(join(dir, 'cases', 'two.yaml'));
    expect(keptListings(['changed'])).toBeUndefined();
  });

  it('gives nothing when the files changed while the suites were loading (the stamp is taken before)', () => {
    const dir = suiteFolder('racing');
    const before = stampOf([dir]);
    writeFileSync(join(dir, 'requirements.yaml'), '- id: R-1\n- id: R-2\n');
    keepListings(['racing'], [dir], before, [listing('racing')]);
    expect(keptListings(['racing'])).toBeUndefined();
  });

  it('gives nothing for a kept file that is not a listing of these suites', () => {
    const dir = suiteFolder('other');
    keepListings(['other'], [dir], stampOf([dir]), [listing('else')]);
    expect(keptListings(['other'])).toBeUndefined();
  });
});
