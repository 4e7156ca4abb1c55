/** `--cases <dir>`: the case files under each folder given, each once; a path that is not there is a usage error. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptCaseFiles } from '../../cli/kept-cases.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-kept-cases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('--cases', () => {
  it('takes the YAML files under a folder at any depth, in name order, and a file given itself, each once', () => {
    const dir = join(root, 'regressions');
    mkdirSync(join(dir, 'oauth'), { recursive: true });
    mkdirSync(join(dir, 'demo'), { recursive: true });
    for (const f of ['oauth/b.yaml', 'oauth/a.yml', 'demo/c.yaml', 'notes.txt', 'results.json']) writeFileSync(join(dir, f), '[]\n');
    const own = join(root, 'mine.yaml');
    writeFileSync(own, '[]\n');
    expect(keptCaseFiles([dir, own, dir, join(dir, 'demo', 'c.yaml')])).toEqual([join(dir, 'demo', 'c.yaml'), join(dir, 'oauth', 'a.yml'), join(dir, 'oauth', 'b.yaml'), own]);
    expect(keptCaseFiles(undefined)).toEqual([]);
  });

  it('refuses a path that does not exist and a file that is not YAML (SG_USAGE)', () => {
    expect(() => keptCaseFiles([join(root, 'nowhere')])).toThrow(expect.objectContaining({ code: 'SG_USAGE', message: expect.stringMatching(/^--cases .*nowhere: cannot read it \(ENOENT\); give a folder of case files/) }));
    const json = join(root, 'results.json');
    writeFileSync(json, '{}');
    expect(() => keptCaseFiles([json])).toThrow(expect.objectContaining({ code: 'SG_USAGE', message: expect.stringContaining('not a folder or a .yaml case file') }));
  });
});
