/**
 * Refusals: how the store says no. A refusal never leaves the store as an exception —
 * `Store.command` turns it into `{ok: 0, code, codeName, errmsg}` — so it is a small class of its
 * own rather than a SpecgateError (whose codes are specgate's exit categories, not a database's).
 */
export const CODES = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  NamespaceNotFound: 26,
  NamespaceExists: 48,
  CommandNotFound: 59,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupportedOnView: 166,
  OptionNotSupportedOnView: 167,
  DuplicateKey: 11000,
} as const;

export type CodeName = keyof typeof CODES;

export class Refusal extends Error {
  readonly codeName: string;
  readonly dbCode: number;

  constructor(codeName: CodeName, message: string);
  constructor(codeName: string, message: string, dbCode: number);
  constructor(codeName: string, message: string, dbCode?: number) {
    super(message);
    this.name = 'Refusal';
    this.codeName = codeName;
    this.dbCode = dbCode ?? (CODES as Record<string, number>)[codeName] ?? CODES.InternalError;
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, code: this.dbCode, codeName: this.codeName, errmsg: this.message };
  }
}

/** An error a comparator threw for an invalid collation document: it carries a code and a name. */
export function codedError(e: unknown): { code: number; codeName: string; message: string } | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const r = e as Record<string, unknown>;
  if (typeof r.code !== 'number' || typeof r.codeName !== 'string') return undefined;
  const message = typeof r.message === 'string' ? r.message : typeof r.errmsg === 'string' ? r.errmsg : String(r.codeName);
  return { code: r.code, codeName: r.codeName, message };
}

export function refuse(codeName: CodeName, message: string): never {
  throw new Refusal(codeName, message);
}
