/**
 * The reference comparator against ICU itself (PyICU on the system ICU): for each collation
 * document, the reference sorts generated strings, and ICU compares every pair of neighbours and
 * a spread of other pairs, opened from the reference's own ICU keyword locale (icuKeywords). A
 * sign that differs fails, unless the known-differences list explains it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collatorFor, icuKeywords, parseCollation } from '../../../../reference/collation/comparator/index.js';
import { declarePeer } from '../../../helpers/peer.js';
import { collationDocuments, label } from './documents.js';
import { differences, neighbours, report, spread, type Difference } from './orders.js';
import { pyicuPeer, startPyIcu, type PyIcu } from './python-icu.js';
import { sampleStrings } from './strings.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

const STRINGS = sampleStrings(600);
const DOCUMENTS = collationDocuments().filter((d) => d['locale'] !== 'simple');

declarePeer(pyicuPeer);

describe.skipIf(pyicuPeer.skip)('reference comparator vs ICU (PyICU)', () => {
  let py: PyIcu;
  beforeAll(() => {
    py = startPyIcu();
  });
  afterAll(() => py.close());

  it('opens the same collator from keywords as from setAttribute calls', async () => {
    for (const doc of DOCUMENTS) {
      const collation = parseCollation(doc);
      if (collation === 'simple') continue;
      const locale = icuKeywords(collation);
      expect(await py.attributes(locale, 'attributes'), `${label(doc)} -> ${locale}`).toEqual(await py.attributes(locale, 'keywords'));
    }
    // and both ways order alike: one locale per option kind, over the neighbours ICU sees
    for (const doc of DOCUMENTS.slice(0, 40)) {
      const collation = parseCollation(doc);
      if (collation === 'simple') continue;
      const locale = icuKeywords(collation);
      const pairs = neighbours(await py.sort(locale, STRINGS.slice(0, 120)));
      expect(await py.signs(locale, pairs, 'attributes'), locale).toEqual(await py.signs(locale, pairs, 'keywords'));
    }
  });

  it('the keyword locale states what each document asks for', async () => {
    // ICU reads back the attribute values the document set (UColAttributeValue: 0..3 primary..quaternary, 15 identical, 16 off, 17 on)
    const en = (doc: Record<string, unknown>): Promise<Record<string, number>> => {
      const c = parseCollation({ locale: 'en', ...doc });
      if (c === 'simple') throw new Error('not an ICU collation');
      return py.attributes(icuKeywords(c));
    };
    expect((await en({ strength: 1 }))['STRENGTH']).toBe(0);
    expect((await en({ strength: 5 }))['STRENGTH']).toBe(15);
    expect((await en({ strength: 1, caseLevel: true }))['CASE_LEVEL']).toBe(17);
    expect((await en({ caseFirst: 'upper' }))['CASE_FIRST']).toBe(25);
    expect((await en({ numericOrdering: true }))['NUMERIC_COLLATION']).toBe(17);
    expect((await en({ alternate: 'shifted' }))['ALTERNATE_HANDLING']).toBe(20);
    expect((await en({ backwards: true }))['FRENCH_COLLATION']).toBe(17);
    expect((await en({ normalization: true }))['NORMALIZATION_MODE']).toBe(17);
    const space = await en({ alternate: 'shifted', maxVariable: 'space' });
    const punct = await en({ alternate: 'shifted', maxVariable: 'punct' });
    expect(space['VARIABLE_TOP']).toBeLessThan(punct['VARIABLE_TOP'] ?? 0);
  });

  it(`orders ${STRINGS.length} generated strings as ICU does, under ${DOCUMENTS.length} documents`, async () => {
    const unexplained: Difference[] = [];
    const explained = new Map<string, number>();
    for (const doc of DOCUMENTS) {
      const collation = parseCollation(doc);
      if (collation === 'simple') continue;
      const ours = collatorFor(doc);
      const sorted = [...STRINGS].sort((a, b) => ours.compare(a, b));
      const pairs = [...neighbours(sorted), ...spread(STRINGS, 300)];
      const theirs = await py.signs(icuKeywords(collation), pairs);
      for (const d of differences('pyicu', doc, collation, pairs, pairs.map(([a, b]) => ours.compare(a, b)), theirs)) {
        if (d.known) explained.set(d.known.id, (explained.get(d.known.id) ?? 0) + 1);
        else unexplained.push(d);
      }
    }
    if (explained.size) console.info(`known differences seen: ${[...explained].map(([id, n]) => `${id} ×${n}`).join(', ')}`);
    expect(unexplained.length, report(unexplained, 'ICU (PyICU)')).toBe(0);
  });
});
