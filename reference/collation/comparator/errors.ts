import { SpecgateError } from '../../../src/errors.js';

/**
 * The names and numbers the best-known document database gives to the ways a collation document
 * can be refused (spec part F, "Collation document"; the specification itself shows no codes).
 */
export type CollationErrorName = 'BadValue' | 'NoSuchKey' | 'FailedToParse' | 'TypeMismatch';

const NUMBERS: Record<CollationErrorName, number> = {
  BadValue: 2,
  NoSuchKey: 4,
  FailedToParse: 9,
  TypeMismatch: 14,
};

/**
 * A collation document that cannot be used. `code` is specgate's own (`SG_CONFIG`: a bad option
 * value); `codeName` and `dbCode` are what a document database replies, so the reference store can
 * answer `{ok: 0, code: dbCode, codeName, errmsg: message}`.
 */
export class CollationDocumentError extends SpecgateError {
  readonly codeName: CollationErrorName;
  readonly dbCode: number;

  constructor(codeName: CollationErrorName, message: string) {
    super('SG_CONFIG', message, { codeName, dbCode: NUMBERS[codeName] });
    this.name = 'CollationDocumentError';
    this.codeName = codeName;
    this.dbCode = NUMBERS[codeName];
  }
}
