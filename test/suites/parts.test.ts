import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../src/engine/model.js';
import { partRequirements } from '../../src/engine/selection.js';
import { fromRoot } from '../../src/paths.js';
import { builtinSuiteNames } from '../../suites/index.js';
import { loadCatalogCopy } from '../helpers/catalog-copy.js';
import { type PartSuite, partsParagraph, requirementsWithoutPart, sidesOutsideParts, undocumentedSides } from '../helpers/part-coverage.js';

/**
 * The parts of every built-in suite (`suite.yaml` `parts:`, `specgate run --part`), read from
 * its catalog and suite file through the engine's loader: together they hold every requirement
 * but those the rules of test/helpers/part-coverage.ts let out, and the suite's README names
 * them as the files do.
 */

/** The suite files a catalog copy needs: the catalog, `suite.yaml`, and what its fragments may name. */
const CATALOG_FILES = ['requirements.yaml', 'suite.yaml', 'api.yaml', 'schemas'];

function loadParts(name: string): PartSuite {
  const files = CATALOG_FILES.filter((f) => existsSync(fromRoot('suites', name, f)));
  const { suite, remove } = loadCatalogCopy(name, files);
  remove();
  return suite;
}

const req = (id: string, extra: Partial<Requirement> = {}): Requirement => ({ id, level: 'MUST', source: 's.txt#S', text: id, ...extra });

/** A suite of two topics on the server side and a client side left to `--side`. */
const sample: PartSuite = {
  requirements: [req('S-WEB-A', { side: 'server' }), req('S-DEV-A', { side: 'server' }), req('S-GONE', { side: 'server', excluded: 'not shown' }), req('S-CLIENT-A', { side: 'client' })],
  sides: { server: { description: 'The platform (S-WEB-*, S-DEV-*)' }, client: { description: 'An application (S-CLIENT-*)' } },
  parts: { web: { description: 'web', requirements: ['S-WEB-*'] }, device: { description: 'device', requirements: ['S-DEV-*'] } },
};

describe('the rules of part coverage', () => {
  it('let out excluded requirements and a side no part reaches, documented by its globs', () => {
    expect(requirementsWithoutPart(sample)).toEqual([]);
    expect(sidesOutsideParts(sample)).toEqual(['client']);
    expect(undocumentedSides(sample)).toEqual([]);
    expect(partsParagraph(sample)).toBe(
      '**Parts** (`--part <name>`): `web` (`S-WEB-*`); `device` (`S-DEV-*`). The client side (`S-CLIENT-*`) is in no part: `--side client` selects it. Excluded, in no part: `S-GONE`.',
    );
  });

  it('catch a requirement added without a part, on a side the parts reach', () => {
    const added = { ...sample, requirements: [...sample.requirements, req('S-TOKEN-A', { side: 'server' })] };
    expect(requirementsWithoutPart(added)).toEqual(['S-TOKEN-A']);
  });

  it('catch a side left out whose description does not name exactly its requirements', () => {
    const vague = { ...sample, sides: { ...sample.sides, client: { description: 'An application' } } };
    expect(undocumentedSides(vague)).toEqual([{ side: 'client', missed: ['S-CLIENT-A'], foreign: [] }]);
    const wide = { ...sample, sides: { ...sample.sides, client: { description: 'An application (S-*)' } } };
    expect(undocumentedSides(wide)).toEqual([{ side: 'client', missed: [], foreign: ['S-WEB-A', 'S-DEV-A', 'S-GONE'] }]);
  });

  it('reach no side without parts: a suite that declares none leaves nothing out by the side rule', () => {
    const bare = { ...sample, parts: undefined };
    expect(sidesOutsideParts(bare)).toEqual(['server', 'client']);
    expect(requirementsWithoutPart({ requirements: [req('X-A')] })).toEqual(['X-A']);
  });
});

describe.each(builtinSuiteNames)('the parts of suite %s', (name) => {
  const suite = loadParts(name);

  it('declares parts, each holding requirements (the loader refuses a glob that matches none)', () => {
    const parts = Object.keys(suite.parts ?? {});
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(partRequirements(suite, part), part).not.toEqual([]);
  });

  it('gives every part a MUST requirement that is not excluded, so a run of one part can gate', () => {
    for (const part of Object.keys(suite.parts ?? {})) {
      const ids = new Set(partRequirements(suite, part));
      const gating = suite.requirements.filter((r) => ids.has(r.id) && r.level === 'MUST' && r.excluded === undefined);
      expect(gating.map((r) => r.id), part).not.toEqual([]);
    }
  });

  it('puts every requirement in a part, unless it is excluded or of a side no part reaches', () => {
    expect(requirementsWithoutPart(suite)).toEqual([]);
    // the parts follow topics, never a whole suite: some side is in them
    expect(sidesOutsideParts(suite).length).toBeLessThan(Math.max(1, Object.keys(suite.sides ?? {}).length));
  });

  it('names, in each side left to --side, the requirements of that side as ID globs', () => {
    expect(undocumentedSides(suite)).toEqual([]);
  });

  it('has a README that names the parts and their globs as suite.yaml declares them', () => {
    // the README's paragraph that starts with **Parts**, wrapped as the author likes
    const readme = readFileSync(fromRoot('suites', name, 'README.md'), 'utf8');
    const paragraph = readme.split(/\n\s*\n/).find((p) => p.startsWith('**Parts**'))?.replace(/\s+/g, ' ');
    expect(paragraph).toContain(partsParagraph(suite));
  });
});
