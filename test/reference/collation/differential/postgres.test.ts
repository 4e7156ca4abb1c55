/**
 * The collation suite's PostgreSQL port on a real PostgreSQL (ICU collations), and the reference
 * comparator against it: for each collation document the port sorts generated strings, and
 * PostgreSQL compares the neighbours of both its order and the reference's order, in one query.
 * A sign that differs fails, unless the known-differences list explains it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collatorFor, parseCollation } from '../../../../reference/collation/comparator/index.js';
import { openDatabase } from '../../../../src/targets/database/open-database.js';
import type { DatabaseTarget } from '../../../../src/targets/database/types.js';
import { icuLocaleOf, postgresPort } from '../../../../suites/collation/ports/postgres.js';
import { CollationRefused, type CollationPort } from '../../../../suites/collation/ports/types.js';
import { declarePeer } from '../../../helpers/peer.js';
import { postgresPeer, startCluster, type Cluster } from '../../../targets/database/pg-cluster.js';
import { collationDocuments } from './documents.js';
import { differences, neighbours, report, type Difference } from './orders.js';
import { pgSigns } from './pg-signs.js';
import { sampleStrings } from './strings.js';
import { prepareComparator } from '../../../../reference/collation/comparator/index.js';

// the comparator's ICU4X engine loads once, before the first comparison
await prepareComparator();

const STRINGS = sampleStrings(600);
const DOCUMENTS = collationDocuments();

async function refusal(p: Promise<unknown>): Promise<CollationRefused> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CollationRefused) return e;
    throw e;
  }
  throw new Error('expected the document to be refused');
}

describe('the PostgreSQL port translates documents to ICU locales', () => {
  it('writes the fields the document states, in ICU keyword form, after the locale and its variant', () => {
    expect(icuLocaleOf({ locale: 'simple' })).toBeUndefined();
    expect(icuLocaleOf({ locale: 'fr_CA' })).toBe('fr_CA');
    expect(icuLocaleOf({ locale: 'en', strength: 1, caseLevel: true, caseFirst: 'off' })).toBe('en@colstrength=primary;colcaselevel=yes;colcasefirst=no');
    expect(icuLocaleOf({ locale: 'de@collation=phonebook', alternate: 'shifted', maxVariable: 'space' })).toBe('de@collation=phonebook;colalternate=shifted;kv=space');
    expect(icuLocaleOf({ locale: 'en', numericOrdering: false, backwards: true, normalization: true, other: 1 })).toBe('en@colnumeric=no;colbackwards=yes;colnormalization=yes');
  });

  it('refuses only what cannot be written as a locale', () => {
    for (const doc of [{}, { locale: 7 }, { locale: "en'; DROP" }, { locale: 'en', strength: '2' }, { locale: 'en', caseLevel: 'yes' }, { locale: 'en', caseFirst: 'upper;colstrength=primary' }])
      expect(() => icuLocaleOf(doc), JSON.stringify(doc)).toThrow(CollationRefused);
    expect(icuLocaleOf({ locale: 'en', strength: 7 })).toBe('en@colstrength=7');
  });
});

declarePeer(postgresPeer);

describe.skipIf(postgresPeer.skip)('the PostgreSQL port on a real cluster', () => {
  let cluster: Cluster;
  let port: CollationPort;
  let db: DatabaseTarget;
  beforeAll(async () => {
    cluster = await startCluster();
    port = postgresPort({ url: cluster.url });
    db = openDatabase({ url: cluster.url });
  });
  afterAll(async () => {
    await port?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('sorts simple by code point ("C" in a UTF8 database), not by UTF-16 unit', async () => {
    const strings = ['\u{1F600}', '\uFFFD', '\uE000', 'z', 'Z', 'é', 'e\u0301', ''];
    const byCodePoint = [...strings].sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0) ?? 0);
      const y = [...b].map((c) => c.codePointAt(0) ?? 0);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return x.length - y.length;
    });
    expect(await port.sort(strings, { locale: 'simple' })).toEqual(byCodePoint);
    expect(await port.matches(strings, 'é', { locale: 'simple' })).toEqual(['é']);
  });

  it('matches by the collation: strength 2 ignores case, strength 5 still equates canonical equivalents', async () => {
    expect(await port.matches(['A', 'a', 'á', 'b'], 'a', { locale: 'en', strength: 2 })).toEqual(['A', 'a']);
    expect(await port.matches(['A', 'a', 'á', 'b'], 'a', { locale: 'en', strength: 1 })).toEqual(['A', 'a', 'á']);
    // deterministic = false matters here: a deterministic collation would tell the bytes apart
    expect(await port.matches(['\u00e9', 'e\u0301', 'e'], '\u00e9', { locale: 'en', strength: 5 })).toEqual(['\u00e9', 'e\u0301']);
  });

  it('PostgreSQL 15 honours normalization, maxVariable and backwards given as keywords', async () => {
    const nonFcd = ['a\u0301\u0323', 'a\u0323\u0301'];
    expect(await port.matches(nonFcd, 'a\u0301\u0323', { locale: 'en', normalization: true })).toEqual(nonFcd);
    expect(await port.matches(nonFcd, 'a\u0301\u0323', { locale: 'en', normalization: false })).toEqual(['a\u0301\u0323']);
    expect(await port.matches(['ab', 'a-b', 'a b'], 'ab', { locale: 'en', alternate: 'shifted' })).toEqual(['ab', 'a-b', 'a b']);
    expect(await port.matches(['ab', 'a-b', 'a b'], 'ab', { locale: 'en', alternate: 'shifted', maxVariable: 'space' })).toEqual(['ab', 'a b']);
    const cote = ['cote', 'côte', 'coté', 'côté'];
    expect(await port.sort(cote, { locale: 'fr_CA' })).toEqual(['cote', 'côte', 'coté', 'côté']);
    expect(await port.sort(cote, { locale: 'fr_CA', backwards: false })).toEqual(['cote', 'coté', 'côte', 'côté']);
  });

  it('leaves the judgement of a document to ICU: a value ICU rejects is refused, an unknown locale is not', async () => {
    const e = await refusal(port.sort(['a'], { locale: 'en', strength: 7 }));
    expect(e.message).toContain('en@colstrength=7');
    await refusal(port.sort(['a'], { locale: 'en', caseFirst: 'sideways' }));
    await refusal(port.sort(['a'], { locale: 'en', strength: '2' }));
    // PostgreSQL 15 opens the root collation for a locale ICU does not know, without a warning
    expect(await port.sort(['b', 'a'], { locale: 'xx_NOPE' })).toEqual(['a', 'b']);
  });

  it(`orders ${STRINGS.length} generated strings as the reference does, under ${DOCUMENTS.length} documents`, async () => {
    const unexplained: Difference[] = [];
    const explained = new Map<string, number>();
    for (const doc of DOCUMENTS) {
      const collation = parseCollation(doc);
      const ours = collatorFor(doc);
      const theirOrder = await port.sort(STRINGS, doc);
      expect([...theirOrder].sort()).toEqual([...STRINGS].sort());
      const ourOrder = [...STRINGS].sort((a, b) => ours.compare(a, b));
      const pairs = [...neighbours(ourOrder), ...neighbours(theirOrder)];
      const theirs = await pgSigns(db, doc, pairs);
      for (const d of differences('postgres', doc, collation, pairs, pairs.map(([a, b]) => ours.compare(a, b)), theirs)) {
        if (d.known) explained.set(d.known.id, (explained.get(d.known.id) ?? 0) + 1);
        else unexplained.push(d);
      }
    }
    if (explained.size) console.info(`known differences seen: ${[...explained].map(([id, n]) => `${id} ×${n}`).join(', ')}`);
    expect(unexplained.length, report(unexplained, 'PostgreSQL ICU')).toBe(0);
  });
});
