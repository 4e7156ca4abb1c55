import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { embeddedDocuments } from '../../../reference/collation/store/embedded.js';
import { parseCollation, prepareComparator } from '../../../reference/collation/comparator/index.js';
import type { ResolvedCollation } from '../../../reference/collation/types.js';
import { suite } from '../../../suites/collation/index.js';
import { tellsApart } from '../../../suites/collation/checks/agrees.js';
import { judgedBy } from '../../../suites/collation/checks/documents.js';
import { tempDir } from '../../e2e/cli.js';
import { plantedStore } from '../../fixtures/collation/faults/faults.js';

await prepareComparator();

/**
 * No pass without evidence in the collation checks: generated strings judge a collation only
 * when it orders some pair of them otherwise than its baseline (the locale alone, or root), and a
 * listed-back document judges a locale's own defaults only when it leaves out a field the locale
 * tailors. A case whose generated input never exercises what it judges leaves it untested, with
 * the reason, instead of passing it.
 */

function resolved(doc: Record<string, unknown>): ResolvedCollation {
  const r = parseCollation(doc);
  if (r === 'simple') throw new Error('a simple document has no resolved fields');
  return r;
}

describe('what generated input judges', () => {
  it('a list exercises numericOrdering only when it holds numbers that compare otherwise as text', () => {
    expect(tellsApart({ locale: 'en', numericOrdering: true }, ['2', '10'])).toBe(true);
    expect(tellsApart({ locale: 'en', numericOrdering: true }, ['a', 'b', 'B'])).toBe(false);
  });

  it("a bare locale is judged against root: Swedish å after z, English nothing", () => {
    expect(tellsApart({ locale: 'sv' }, ['z', 'å'])).toBe(true);
    expect(tellsApart({ locale: 'en' }, ['z', 'å', 'a', 'A'])).toBe(false);
  });

  it("a listed-back document judges a locale's own defaults only when it leaves out a field the locale tailors", () => {
    expect(judgedBy({ locale: 'fr_CA' }, resolved({ locale: 'fr_CA' }))).toContain('COLL-LOCALE-DEFAULTS-VARY');
    expect(judgedBy({ locale: 'fr_CA', backwards: false }, resolved({ locale: 'fr_CA', backwards: false }))).not.toContain('COLL-LOCALE-DEFAULTS-VARY');
    expect(judgedBy({ locale: 'en' }, resolved({ locale: 'en' }))).toEqual(['COLL-DOC-ECHO', 'COLL-DOC-DEFAULTS']);
    const full = { locale: 'en', strength: 2, caseLevel: false, caseFirst: 'off', numericOrdering: false, alternate: 'shifted', maxVariable: 'space', normalization: false, backwards: false };
    expect(judgedBy(full, resolved(full))).toEqual(['COLL-DOC-ECHO']);
  });
});

describe('a case whose generated strings never exercise the collation', () => {
  const work = tempDir('specgate-collation-evidence-');
  afterAll(() => work.remove());

  /** The collation suite's checks over a suite folder of one requirement and the given case steps. */
  function oneCaseSuite(steps: unknown[]): SuiteModule {
    const dir = join(work.dir, `suite-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(join(dir, 'suite.yaml'), 'vars: {}\n');
    writeFileSync(
      join(dir, 'requirements.yaml'),
      JSON.stringify([{ id: 'COLL-NUMERIC-ORDER', level: 'MUST', source: '001_5e21481c28ca383d.txt#Resources and their fields/F. Collation document', text: 'numericOrdering true compares digit runs by value.' }]),
    );
    writeFileSync(join(dir, 'cases', 'only.yaml'), JSON.stringify([{ id: 'numeric-generated', description: 'generated strings under numericOrdering', requirements: ['COLL-NUMERIC-ORDER'], steps }]));
    return {
      ...suite,
      dir,
      reference: { async start() { return { description: 'the clean collation store', vars: {}, documents: embeddedDocuments(plantedStore(), 'clean'), async stop() {} }; } },
    };
  }

  async function verdict(steps: unknown[]): Promise<{ status: string; reason: string }> {
    const r = await run({ modules: [oneCaseSuite(steps)], suites: ['collation'], targets: {}, seed: 7, runs: 5, shrink: false });
    const q = r.requirements.find((x) => x.id === 'COLL-NUMERIC-ORDER');
    return { status: q?.status ?? '(none)', reason: q?.reason ?? '' };
  }

  it('leaves the requirement untested, saying no generated list held two strings the collation orders otherwise', async () => {
    // numericOrdering false is what `{locale: en}` does by itself: no generated list can tell the two apart
    const v = await verdict([{ check: 'collation.agrees', with: { collation: { locale: 'en', numericOrdering: false }, strings: 'near-pairs', runs: 5 } }]);
    expect(v.status).toBe('untested');
    expect(v.reason).toContain('no generated list');
  });

  it('passes it once the generated strings hold numbers that compare otherwise as text', async () => {
    const v = await verdict([{ check: 'collation.agrees', with: { collation: { locale: 'en', numericOrdering: true }, strings: 'long-digits', runs: 5 } }]);
    expect(v).toMatchObject({ status: 'passed' });
  });
});
