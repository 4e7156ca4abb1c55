/**
 * Output paths never pass through a symbolic link: found from the root down, refused with the
 * link and the real path named, folders made one at a time, files opened without following one.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canCreateIn, checkOutputFolder, isStreamName, isSystemLink, linkOnPath, makeFolderNoFollow, refuseLinks, writeFileNoFollow } from '../../src/reporting/output-path.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-output-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const elsewhere = join(dir, 'elsewhere');
mkdirSync(elsewhere);
symlinkSync(elsewhere, join(dir, 'linked'));

describe('linkOnPath', () => {
  it('finds a link among the folders or at the path itself, and none on a plain path or one still to make', () => {
    expect(linkOnPath(join(dir, 'linked', 'a', 'b.json'))).toEqual({ link: join(dir, 'linked'), to: elsewhere });
    expect(linkOnPath(join(dir, 'linked'))).toEqual({ link: join(dir, 'linked'), to: elsewhere });
    expect(linkOnPath(join(dir, 'plain', 'new', 'file.json'))).toBeUndefined();
  });

  it('follows only the system\'s own links: right below the root and owned by root (macOS /tmp and /var)', () => {
    const owned = (uid: number): Stats => ({ uid }) as Stats;
    expect(isSystemLink('/tmp', owned(0))).toBe(true);
    expect(isSystemLink('/tmp', owned(1000))).toBe(false);
    expect(isSystemLink(join(dir, 'linked'), owned(0))).toBe(false);
    expect(isSystemLink('/usr/tmp', owned(0))).toBe(false);
    // where the system has such a link (merged /usr: /bin -> usr/bin), a path through it is not refused
    const system = ['/bin', '/lib', '/sbin', '/tmp', '/var'].find((p) => lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() && lstatSync(p).uid === 0);
    if (system) expect(linkOnPath(join(system, 'specgate-no-such-file'))).toBeUndefined();
  });

  it('tells the system names of this process\'s streams from paths', () => {
    expect(['/dev/stdout', '/dev/stderr', '/dev/fd/3', '/proc/self/fd/1'].map(isStreamName)).toEqual([true, true, true, true]);
    expect(['/dev/null', '/dev/full', join(dir, 'stdout'), '/proc/1/fd/1'].map(isStreamName)).toEqual([false, false, false, false]);
  });
});

describe('refusing and checking', () => {
  it('refuses a path through a link with SG_USAGE, naming the option, the link and the real path', () => {
    expect(() => refuseLinks('--report json=linked/r.json', join(dir, 'linked', 'r.json'))).toThrow(
      expect.objectContaining({ code: 'SG_USAGE', message: expect.stringContaining(`--report json=linked/r.json: the folder ${join(dir, 'linked')} on the way to it is a symbolic link (to ${elsewhere}); specgate writes nothing through a symbolic link`) }),
    );
    expect(() => refuseLinks('--regressions linked', join(dir, 'linked'))).toThrow(/--regressions linked: .*linked is a symbolic link .* give the real path \(.*elsewhere\)/);
  });

  it('checks an output folder can be made without making it, and refuses one under a file', () => {
    checkOutputFolder('--regressions x', join(dir, 'fresh', 'deeper'));
    expect(readdirSync(dir).sort()).toEqual(['elsewhere', 'linked']);
    writeFileSync(join(dir, 'a-file'), 'x');
    expect(() => checkOutputFolder('--regressions y', join(dir, 'a-file', 'sub'))).toThrow(/--regressions y: .*a-file is a file, so the folder .* cannot be created/);
    rmSync(join(dir, 'a-file'));
  });

  it('finds that nothing can be made in /proc, whatever the permission bits say to root', () => {
    expect(canCreateIn(dir)).toEqual({ ok: true });
    expect(canCreateIn('/proc').ok).toBe(false);
  });
});

describe('writing without following a link', () => {
  it('makes the folders and writes the file, replacing an earlier one in place', () => {
    const file = join(dir, 'out', 'suite', 'case.yaml');
    writeFileNoFollow('--regressions out', file, 'one');
    writeFileNoFollow('--regressions out', file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
  });

  it('stops at a link among the folders or at the file\'s own name, and writes nothing where it points', () => {
    symlinkSync(elsewhere, join(dir, 'out', 'planted'));
    expect(() => writeFileNoFollow('--regressions out', join(dir, 'out', 'planted', 'case.yaml'), 'x')).toThrow(/the folder .*planted on the way to it is a symbolic link/);
    expect(() => makeFolderNoFollow('--regressions out', join(dir, 'out', 'planted', 'deeper'))).toThrow(/SG_USAGE|symbolic link/);
    symlinkSync(join(elsewhere, 'taken.yaml'), join(dir, 'out', 'suite', 'link.yaml'));
    expect(() => writeFileNoFollow('--regressions out', join(dir, 'out', 'suite', 'link.yaml'), 'x')).toThrow(/link\.yaml is a symbolic link/);
    expect(() => writeFileNoFollow('--out x', join(dir, 'out', 'suite', 'case.yaml'), 'x', { exclusive: true })).toThrow(/EEXIST/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
