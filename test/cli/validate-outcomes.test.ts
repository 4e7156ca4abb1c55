import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepOutcomes, keptOutcomes, outcomesStamp, type Found } from '../../cli/validate-outcomes.js';
import { suiteFolder as suiteFolderUnder } from '../helpers/suite-folder.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-validate-outcomes-'));
// what these throw-away folders keep stays out of the project's cache folder
process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const suiteFolder = (name: string): string => suiteFolderUnder(root, name);

const PROBLEM: Found = ['SG_SUITE_SCHEMA', 'cases/one.yaml:1:3: unknown requirement "R-9"'];

/** The one file kept for the suite owners `owners`, found by its folders. */
function keptFile(dir: string): string {
  const cache = join(root, '.cache');
  const found = readdirSync(cache).filter((f) => f.startsWith('validate-') && (JSON.parse(readFileSync(join(cache, f), 'utf8')) as { dirs: string[] }).dirs[0] === dir);
  expect(found).toHaveLength(1);
  return join(cache, found[0] as string);
}

describe('what validate found, kept (validate-outcomes.ts)', () => {
  it('gives back what was found of the files of the same suites, in the same order, while their files are as they were', () => {
    const dir = suiteFolder('same');
    keepOutcomes(['same', 'same'], [dir], outcomesStamp([dir]), [[], [PROBLEM]]);
    expect(keptOutcomes(['same', 'same'])).toEqual([[], [PROBLEM]]);
    expect(keptOutcomes(['same'])).toBeUndefined();
    writeFileSync(join(dir, 'cases', 'one.yaml'), '- id: one\n  description: edited\n');
    expect(keptOutcomes(['same', 'same'])).toBeUndefined();
  });

  it('keeps nothing stamped before a change made during the check, and nothing of an unknown code or with a control character', () => {
    const dir = suiteFolder('racing');
    const before = outcomesStamp([dir]);
    writeFileSync(join(dir, 'requirements.yaml'), '- id: R-2\n');
    keepOutcomes(['racing'], [dir], before, [[]]);
    expect(keptOutcomes(['racing'])).toBeUndefined();
    const other = suiteFolder('refused');
    keepOutcomes(['refused'], [other], outcomesStamp([other]), [[['SG_INTERNAL', 'a bug']]]);
    expect(keptOutcomes(['refused'])).toBeUndefined();
    keepOutcomes(['refused'], [other], outcomesStamp([other]), [[['SG_SUITE_SCHEMA', 'x\u001b]0;owned\u0007']]]);
    expect(keptOutcomes(['refused'])).toBeUndefined();
    keepOutcomes(['refused'], [other], outcomesStamp([other]), [[['SG_SUITE_SCHEMA', 'a\tb\nc']]]);
    expect(keptOutcomes(['refused'])).toEqual([[['SG_SUITE_SCHEMA', 'a\tb\nc']]]);
  });

  it('gives nothing for a kept file of the wrong shape, or one others may write', () => {
    const dir = suiteFolder('planted');
    keepOutcomes(['planted'], [dir], outcomesStamp([dir]), [[PROBLEM]]);
    const file = keptFile(dir);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { found: unknown };
    for (const found of [[[['SG_SUITE_SCHEMA']]], [[null]], [PROBLEM], [[['SG_SUITE_SCHEMA', 7]]], [[PROBLEM], []]]) {
      writeFileSync(file, JSON.stringify({ ...kept, found }));
      expect(keptOutcomes(['planted'])).toBeUndefined();
    }
    writeFileSync(file, JSON.stringify(kept));
    expect(keptOutcomes(['planted'])).toEqual([[PROBLEM]]);
    const mode = statSync(file).mode & 0o777;
    chmodSync(file, 0o666);
    expect(keptOutcomes(['planted'])).toBeUndefined();
    chmodSync(file, mode);
  });
});
