import { describe, expect, it } from 'vitest';
import { CollationDocumentError, parseCollation } from '../../../../reference/collation/comparator/index.js';
import type { CollationErrorName } from '../../../../reference/collation/comparator/index.js';
import { isSpecgateError } from '../../../../src/errors.js';

function refusal(doc: unknown): CollationDocumentError {
  try {
    parseCollation(doc);
  } catch (e) {
    if (e instanceof CollationDocumentError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(doc)}`);
}

describe('parseCollation refuses invalid documents (spec part F, collation document)', () => {
  const table: Array<[unknown, CollationErrorName]> = [
    [{}, 'NoSuchKey'],
    [{ strength: 2 }, 'NoSuchKey'],
    [{ locale: 5 }, 'TypeMismatch'],
    [{ locale: null }, 'TypeMismatch'],
    ['en', 'TypeMismatch'],
    [null, 'TypeMismatch'],
    [[{ locale: 'en' }], 'TypeMismatch'],
    [{ locale: '' }, 'BadValue'],
    [{ locale: 'en\0' }, 'BadValue'],
    [{ locale: 'xx' }, 'BadValue'],
    [{ locale: 'fr_FR' }, 'BadValue'],
    [{ locale: 'EN' }, 'BadValue'],
    [{ locale: 'en-US' }, 'BadValue'],
    [{ locale: 'de@collation=foo' }, 'BadValue'],
    [{ locale: 'en@collation=standard' }, 'BadValue'],
    [{ locale: 'simple', strength: 1 }, 'FailedToParse'],
    [{ locale: 'simple', unknown: 1 }, 'FailedToParse'],
    [{ locale: 'en', colour: 'red' }, 'FailedToParse'],
    [{ locale: 'en', version: '57.1' }, 'FailedToParse'],
    [{ locale: 'en', strength: '2' }, 'TypeMismatch'],
    [{ locale: 'en', strength: 2.5 }, 'BadValue'],
    [{ locale: 'en', strength: 0 }, 'FailedToParse'],
    [{ locale: 'en', strength: 6 }, 'FailedToParse'],
    [{ locale: 'en', strength: -1 }, 'FailedToParse'],
    [{ locale: 'en', caseLevel: 'true' }, 'TypeMismatch'],
    [{ locale: 'en', caseLevel: 1 }, 'TypeMismatch'],
    [{ locale: 'en', caseFirst: true }, 'TypeMismatch'],
    [{ locale: 'en', caseFirst: 'UPPER' }, 'FailedToParse'],
    [{ locale: 'en', caseFirst: 'false' }, 'FailedToParse'],
    [{ locale: 'en', numericOrdering: 'yes' }, 'TypeMismatch'],
    [{ locale: 'en', alternate: 'ignorable' }, 'FailedToParse'],
    [{ locale: 'en', alternate: 1 }, 'TypeMismatch'],
    [{ locale: 'en', maxVariable: 'symbol' }, 'FailedToParse'],
    [{ locale: 'en', maxVariable: null }, 'TypeMismatch'],
    [{ locale: 'en', normalization: 0 }, 'TypeMismatch'],
    [{ locale: 'en', backwards: 'no' }, 'TypeMismatch'],
    [{ locale: 'en', strength: 1, backwards: true }, 'BadValue'],
    [{ locale: 'en', strength: 1, caseFirst: 'upper' }, 'BadValue'],
    [{ locale: 'en', strength: 2, caseFirst: 'lower' }, 'BadValue'],
  ];
  it.each(table)('%j -> %s', (doc, codeName) => {
    const e = refusal(doc);
    expect(e.codeName).toBe(codeName);
    expect(e.dbCode).toBe({ BadValue: 2, NoSuchKey: 4, FailedToParse: 9, TypeMismatch: 14 }[codeName]);
    expect(isSpecgateError(e)).toBe(true);
    expect(e.code).toBe('SG_CONFIG');
    expect(e.message.length).toBeGreaterThan(10);
  });

  it('checks the locale before the options, as the document database does', () => {
    expect(refusal({ locale: 'xx', strength: 'two' }).codeName).toBe('BadValue');
  });
});

describe('parseCollation accepts and resolves valid documents', () => {
  it('simple alone', () => {
    expect(parseCollation({ locale: 'simple' })).toBe('simple');
  });

  const common = {
    strength: 3, caseLevel: false, caseFirst: 'off', numericOrdering: false, alternate: 'non-ignorable',
    maxVariable: 'punct', normalization: false, backwards: false,
  };
  it.each([
    ['en', {}],
    ['en_US', {}],
    ['en_US_POSIX', {}],
    ['root', {}],
    ['fr', {}],
    ['fr_CA', { backwards: true }],
    ['da', { caseFirst: 'upper' }],
    ['mt', { caseFirst: 'upper' }],
    ['th', { alternate: 'shifted', normalization: true }],
    ['hi', { normalization: true }],
    ['vi', { normalization: true }],
    ['zh', {}],
    ['zh@collation=unihan', {}],
    ['zh_Hant', {}],
    ['de@collation=phonebook', {}],
    ['es@collation=traditional', {}],
    ['es@collation=search', { normalization: true }],
    ['da@collation=search', { normalization: true }],
    ['ko@collation=searchjl', { normalization: true }],
    ['sr_Latn', {}],
  ])('%s resolves with its locale defaults %j', (locale, overrides) => {
    expect(parseCollation({ locale })).toEqual({ locale, ...common, ...overrides });
  });

  it('keeps what the user wrote over the locale default', () => {
    expect(parseCollation({ locale: 'fr_CA', backwards: false })).toMatchObject({ backwards: false });
    expect(parseCollation({ locale: 'da', caseFirst: 'off' })).toMatchObject({ caseFirst: 'off' });
    expect(parseCollation({ locale: 'th', alternate: 'non-ignorable' })).toMatchObject({ alternate: 'non-ignorable' });
    expect(parseCollation({ locale: 'en', strength: 2.0, numericOrdering: true })).toMatchObject({ strength: 2, numericOrdering: true });
  });

  it('lets a locale default stand at strengths where the user could not write it', () => {
    expect(parseCollation({ locale: 'fr_CA', strength: 1 })).toMatchObject({ strength: 1, backwards: true });
    expect(parseCollation({ locale: 'da', strength: 2 })).toMatchObject({ strength: 2, caseFirst: 'upper' });
    expect(parseCollation({ locale: 'en', strength: 1, caseFirst: 'upper', caseLevel: true })).toMatchObject({ caseFirst: 'upper' });
    expect(parseCollation({ locale: 'en', strength: 1, caseFirst: 'off' })).toMatchObject({ caseFirst: 'off' });
  });
});
