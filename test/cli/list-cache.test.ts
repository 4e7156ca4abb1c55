import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepListings, keptListings, stampOf } from '../../cli/list-cache.js';
import type { SuiteListing } from '../../cli/suite-listing.js';
import { suiteFolder as suiteFolderUnder } from '../helpers/suite-folder.js';

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

const suiteFolder = (name: string): string => suiteFolderUnder(root, name);

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

  /** The file the listing of the one suite `name` was kept in, found by what it holds. */
  function keptFile(name: string): string {
    const dir = join(root, '.cache');
    const found = readdirSync(dir).filter((f) => f.startsWith('listing-') && f.endsWith('.json'))
      .filter((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { listings: ({ name?: unknown } | null)[] }).listings.map((l) => l?.name).join(',') === name);
    expect(found).toHaveLength(1);
    return join(dir, found[0] as string);
  }

  /** Keeps a listing of `name`, then rewrites its first listing with `edit`; the file's mode stays. */
  function plant(name: string, edit: (listing: Record<string, unknown>, all: unknown[]) => void): void {
    const dir = suiteFolder(name);
    keep([name], [dir]);
    expect(keptListings([name])).toEqual([listing(name)]);
    const file = keptFile(name);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { listings: unknown[] };
    edit(kept.listings[0] as Record<string, unknown>, kept.listings);
    writeFileSync(file, JSON.stringify(kept));
  }

  it('gives nothing, rather than failing, for a kept listing that is null or of the wrong shape', () => {
    plant('null', (_l, all) => all.splice(0, 1, null));
    expect(keptListings(['null'])).toBeUndefined();
    plant('no-cases', (l) => delete l['cases']);
    expect(keptListings(['no-cases'])).toBeUndefined();
    plant('case-not-object', (l) => (l['cases'] = [null]));
    expect(keptListings(['case-not-object'])).toBeUndefined();
    plant('requirements-text', (l) => ((l['requirements'] as Record<string, unknown>[])[0]!['text'] = 7));
    expect(keptListings(['requirements-text'])).toBeUndefined();
    plant('judges', (l) => (l['checks'] = [{ name: 'c', description: 'd', judges: 'all', sets: [] }]));
    expect(keptListings(['judges'])).toBeUndefined();
    plant('sides', (l) => (l['sides'] = { server: null }));
    expect(keptListings(['sides'])).toBeUndefined();
  });

  it('gives nothing for a kept listing holding a control character other than newline and tab', () => {
    plant('escape', (l) => ((l['cases'] as Record<string, unknown>[])[0]!['description'] = 'x\u001b]0;owned\u0007'));
    expect(keptListings(['escape'])).toBeUndefined();
    plant('csi', (l) => (l['gaps'] = ['R-\u009b2J']));
    expect(keptListings(['csi'])).toBeUndefined();
    plant('tab', (l) => ((l['cases'] as Record<string, unknown>[])[0]!['description'] = 'a\tb\nc'));
    expect(keptListings(['tab'])?.[0]?.cases[0]?.description).toBe('a\tb\nc');
  });

  it('neither keeps nor reads listings in a cache folder others may write, nor from a file others may write', () => {
    const cache = join(root, '.cache');
    const mode = statSync(cache).mode & 0o777;
    const dir = suiteFolder('shared');
    try {
      keep(['shared'], [dir]);
      expect(keptListings(['shared'])).toHaveLength(1);
      chmodSync(cache, 0o777);
      expect(keptListings(['shared'])).toBeUndefined();
      rmSync(keptFile('shared'));
      keep(['shared'], [dir]);
      expect(readdirSync(cache).filter((f) => f.startsWith('listing-')).length).toBeGreaterThan(0);
      expect(() => keptFile('shared')).toThrow();
    } finally {
      chmodSync(cache, mode);
    }
    keep(['shared'], [dir]);
    chmodSync(keptFile('shared'), 0o666);
    expect(keptListings(['shared'])).toBeUndefined();
  });
});
