import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCachedYaml } from '../../../src/engine/loader/cached-yaml.js';
import { SpecgateErrorList } from '../../../src/errors.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-cached-yaml-'));
const cache = join(root, '.cache');
// keep these throw-away files out of the project's cache folder
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = cache;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** The parsed files the cache holds (it keeps compiled schema validators beside them). */
const parsedEntries = (): string[] => readdirSync(cache).filter((f) => f.endsWith('.json'));

const TEXT = 'vars:\n  shop_url: { description: the shop }\nfragments:\n  login:\n    request: { method: POST, url: "${shop_url}/login" }\n';

describe('readCachedYaml', () => {
  it('answers the positions of the first load from the cache, named by where the file is now', () => {
    const first = readCachedYaml('a/suite.yaml', TEXT, 'suite');
    expect(first.locate(['fragments', 'login'])).toEqual({ file: 'a/suite.yaml', line: 5, column: 5 });
    first.remember();
    expect(parsedEntries()).toHaveLength(1);
    const again = readCachedYaml('b/suite.yaml', TEXT, 'suite');
    expect(again.data).toEqual(first.data);
    expect(again.locate(['fragments', 'login'])).toEqual({ file: 'b/suite.yaml', line: 5, column: 5 });
    // a position never asked for before is found by parsing again
    expect(again.locate(['vars', 'shop_url'])).toEqual({ file: 'b/suite.yaml', line: 2, column: 13 });
    expect(again.locateKey?.(['vars', 'shop_url'])).toEqual({ file: 'b/suite.yaml', line: 2, column: 3 });
  });

  it('keeps nothing of a file the loader did not accept (no remember)', () => {
    const text = `${TEXT}# changed\n`;
    readCachedYaml('c/suite.yaml', text, 'suite');
    const count = parsedEntries().length;
    readCachedYaml('c/suite.yaml', text, 'suite');
    expect(parsedEntries()).toHaveLength(count);
  });

  it('reports schema violations with their positions, never from the cache', () => {
    let caught: unknown;
    try {
      readCachedYaml('d/suite.yaml', 'vars:\n  x: { colour: red }\n', 'suite');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpecgateErrorList);
    expect((caught as SpecgateErrorList).errors[0]?.message).toMatch(/^d\/suite\.yaml:2:/);
  });
});
