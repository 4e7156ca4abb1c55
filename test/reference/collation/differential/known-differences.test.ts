/**
 * Every known difference still holds: its example pair differs between the reference and each
 * real ICU the entry names, and the entry explains its own example. A stale entry fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collatorFor, icuKeywords, parseCollation } from '../../../../reference/collation/comparator/index.js';
import { openDatabase } from '../../../../src/targets/database/open-database.js';
import type { DatabaseTarget } from '../../../../src/targets/database/types.js';
import { postgresPort } from '../../../../suites/collation/ports/postgres.js';
import { declarePeer } from '../../../helpers/peer.js';
import { postgresPeer, startCluster, type Cluster } from '../../../targets/database/pg-cluster.js';
import { KNOWN_DIFFERENCES, firstPrimaryDifferenceIsHan, hasAstralDigit, hasSeveralSecondaries, isFcd, sharedDigitPrefixThenOtherDigit } from './known-differences.js';
import { shown } from './orders.js';
import { pgSigns } from './pg-signs.js';
import { pyicuPeer, startPyIcu, type PyIcu } from './python-icu.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

describe('the known-differences list', () => {
  it('names each entry once and explains each example by its own entry', () => {
    expect(new Set(KNOWN_DIFFERENCES.map((k) => k.id)).size).toBe(KNOWN_DIFFERENCES.length);
    for (const k of KNOWN_DIFFERENCES) expect(k.applies(parseCollation(k.example.document), k.example.a, k.example.b), k.id).toBe(true);
  });

  it('tells FCD text from text whose marks need reordering', () => {
    expect(isFcd('A\u0323\u0301')).toBe(true);
    expect(isFcd('\u1EA0\u0301')).toBe(true);
    expect(isFcd('A\u0301\u0323')).toBe(false);
    expect(isFcd('\u00C1\u0323')).toBe(false);
  });

  it('finds clusters with several secondary weights, Han at the first primary difference, and astral digits', () => {
    const en = parseCollation({ locale: 'en' });
    const phonebook = parseCollation({ locale: 'de@collation=phonebook' });
    expect(hasSeveralSecondaries(en, 'x\u0129\u0301')).toBe(true);
    expect(hasSeveralSecondaries(en, '\u1EA0\u0301')).toBe(true);
    expect(hasSeveralSecondaries(en, '\u00E9a\u0301')).toBe(false);
    expect(hasSeveralSecondaries(phonebook, '\u00E4')).toBe(true);
    expect(hasSeveralSecondaries(parseCollation({ locale: 'de' }), '\u00E4')).toBe(false);
    expect(firstPrimaryDifferenceIsHan(en, 'ab\u963F', 'ab\u{20000}x')).toBe(true);
    expect(firstPrimaryDifferenceIsHan(en, '\u30AC\u8A9E', '\uFF76\uFF9E\u{20000}')).toBe(true);
    expect(firstPrimaryDifferenceIsHan(en, '\u963Fa', '\u963Fb')).toBe(false);
    expect(firstPrimaryDifferenceIsHan(en, 'a\u963F', 'b\u{20000}')).toBe(false);
    expect(hasAstralDigit('x\u{1D7CF}')).toBe(true);
    expect(hasAstralDigit('\u{1F600}1\u0661')).toBe(false);
    expect(sharedDigitPrefixThenOtherDigit('+1a\u0301', '+1\u0661\u0662')).toBe(true);
    expect(sharedDigitPrefixThenOtherDigit('1a', '112')).toBe(false);
    expect(sharedDigitPrefixThenOtherDigit('xa', 'x\u0661')).toBe(false);
  });
});

declarePeer(pyicuPeer);

describe.skipIf(pyicuPeer.skip)('known differences still differ from ICU (PyICU)', () => {
  let py: PyIcu;
  beforeAll(() => {
    py = startPyIcu();
  });
  afterAll(() => py.close());

  for (const k of KNOWN_DIFFERENCES.filter((d) => d.against.includes('pyicu'))) {
    it(k.id, async () => {
      const { document, a, b } = k.example;
      const collation = parseCollation(document);
      if (collation === 'simple') throw new Error(`${k.id}: a simple example cannot differ from ICU`);
      const ours = Math.sign(collatorFor(document).compare(a, b));
      const [theirs] = await py.signs(icuKeywords(collation), [[a, b]]);
      expect(ours, `${JSON.stringify(document)} compare(${shown(a)}, ${shown(b)}): ICU gives ${theirs}`).not.toBe(theirs);
    });
  }
});

declarePeer(postgresPeer);

describe.skipIf(postgresPeer.skip)('known differences still differ from PostgreSQL ICU', () => {
  let cluster: Cluster;
  let db: DatabaseTarget;
  beforeAll(async () => {
    cluster = await startCluster();
    db = openDatabase({ url: cluster.url });
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  });

  for (const k of KNOWN_DIFFERENCES.filter((d) => d.against.includes('postgres'))) {
    it(k.id, async () => {
      const { document, a, b } = k.example;
      const port = postgresPort({ url: cluster.url });
      try {
        const ours = Math.sign(collatorFor(document).compare(a, b));
        await port.sort([a, b], document);
        const [theirs] = await pgSigns(db, document, [[a, b]]);
        expect(ours, `${JSON.stringify(document)} compare(${shown(a)}, ${shown(b)}): PostgreSQL gives ${theirs}`).not.toBe(theirs);
      } finally {
        await port.close();
      }
    });
  }
});
