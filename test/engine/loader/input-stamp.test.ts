import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeStamp, filesStamp, packageLock } from '../../../src/engine/loader/input-stamp.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-input-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'deep'), { recursive: true });
  writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
  writeFileSync(join(dir, 'deep', 'b.yaml'), 'b: 2\n');
  return dir;
}

describe('filesStamp', () => {
  it('is the same while nothing changes, and changes when a file at any depth is written, added or removed', () => {
    const dir = folder('changes');
    const first = filesStamp([dir]);
    expect(filesStamp([dir])).toBe(first);
    writeFileSync(join(dir, 'deep', 'b.yaml'), 'b: 3\n');
    const written = filesStamp([dir]);
    expect(written).not.toBe(first);
    writeFileSync(join(dir, 'deep', 'c.yaml'), '');
    const added = filesStamp([dir]);
    expect(added).not.toBe(written);
    rmSync(join(dir, 'deep', 'c.yaml'));
    expect(filesStamp([dir])).not.toBe(added);
  });

  it('changes when a file is written back to the same size (its time changes)', () => {
    const dir = folder('same-size');
    const first = filesStamp([dir]);
    writeFileSync(join(dir, 'a.yaml'), 'a: 9\n');
    utimesSync(join(dir, 'a.yaml'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(filesStamp([dir])).not.toBe(first);
  });

  it('changes when a file is rewritten to the same size and its modification time set back, or its mode changes', () => {
    const dir = folder('time-set-back');
    const file = join(dir, 'a.yaml');
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    const first = filesStamp([dir]);
    writeFileSync(file, 'a: 7\n');
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    const rewritten = filesStamp([dir]);
    expect(rewritten).not.toBe(first);
    chmodSync(file, 0o600);
    expect(filesStamp([dir])).not.toBe(rewritten);
  });

  it('tells a missing folder from an empty one, and counts only the files `keep` takes', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(filesStamp([empty])).not.toBe(filesStamp([join(root, 'absent')]));
    const dir = folder('kept');
    const yamlOnly = filesStamp([dir], (n) => n.endsWith('.yaml'));
    writeFileSync(join(dir, 'notes.md'), 'x');
    expect(filesStamp([dir], (n) => n.endsWith('.yaml'))).toBe(yamlOnly);
    expect(filesStamp([dir])).not.toBe(filesStamp([dir], (n) => n.endsWith('.yaml')));
  });

  it('follows a symbolic link to the file it names', () => {
    const dir = folder('linked');
    symlinkSync(join(dir, 'a.yaml'), join(dir, 'link.yaml'));
    const first = filesStamp([dir]);
    writeFileSync(join(dir, 'a.yaml'), 'a: 12345\n');
    expect(filesStamp([dir])).not.toBe(first);
  });

  it('walks into a symbolically linked folder, as the suite loader does, and notices an edit there', () => {
    const dir = folder('linked-folder');
    const elsewhere = folder('elsewhere');
    symlinkSync(elsewhere, join(dir, 'cases'));
    const first = filesStamp([dir]);
    writeFileSync(join(elsewhere, 'deep', 'b.yaml'), 'b: 12345\n');
    const written = filesStamp([dir]);
    expect(written).not.toBe(first);
    writeFileSync(join(elsewhere, 'deep', 'c.yaml'), '');
    expect(filesStamp([dir])).not.toBe(written);
  });

  it('ends on a link that leads back up, and still notices edits below it', () => {
    const dir = folder('cycle');
    symlinkSync(dir, join(dir, 'deep', 'up'));
    symlinkSync(join(dir, 'self'), join(dir, 'self'));
    const first = filesStamp([dir]);
    expect(filesStamp([dir])).toBe(first);
    writeFileSync(join(dir, 'deep', 'b.yaml'), 'b: 12345\n');
    expect(filesStamp([dir])).not.toBe(first);
  });
});

describe('packageLock', () => {
  it("is the nearest node_modules/.package-lock.json upward, as in a copy installed under a project's node_modules", () => {
    const project = join(root, 'project');
    const installed = join(project, 'node_modules', 'specgate');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), '{}');
    const lock = packageLock(installed);
    expect(lock?.size).toBe(2);
    mkdirSync(join(installed, 'node_modules'));
    writeFileSync(join(installed, 'node_modules', '.package-lock.json'), '{"own":1}');
    expect(packageLock(installed)?.size).toBe(9);
  });

  it('is undefined when there is none up to the root of the file system', () => {
    // the temporary folder has none above it on this machine, else this says nothing
    const bare = join(root, 'bare');
    mkdirSync(bare);
    expect(packageLock(bare)).toBeUndefined();
  });
});

describe('codeStamp', () => {
  it('is one fingerprint for the whole process', () => {
    expect(codeStamp()).toMatch(/^[0-9a-f]{64}$/);
    expect(codeStamp()).toBe(codeStamp());
  });
});
