/**
 * A driver's reply as the values cases match: BSON wrapper types become plain JSON values, the
 * way the SQL port normalises its rows. Recognised by their `_bsontype` tag, so this file loads no
 * driver: object ids as hex text, 64-bit integers as numbers while exact (`bigint` beyond 2^53,
 * as JSON bodies do), decimals as text (no JS number holds them exactly), dates as ISO text,
 * binary data as bytes (a UUID as its text), timestamps as `{ t, i }`.
 */
export function plainFromBson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(plainFromBson);
  const tag = (value as { _bsontype?: unknown })._bsontype;
  if (typeof tag === 'string') return plainWrapper(tag, value as BsonLike);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: plainFromBson(v), enumerable: true, writable: true, configurable: true });
    else out[k] = plainFromBson(v);
  }
  return out;
}

/** The members of BSON wrappers this file reads (each optional: only the tag says which apply). */
interface BsonLike {
  toHexString?(): string;
  toString(): string;
  toBigInt?(): bigint;
  valueOf?(): unknown;
  sub_type?: number;
  buffer?: Uint8Array;
  toUUID?(): { toHexString(dashes?: boolean): string };
  t?: number;
  i?: number;
  high?: number;
  low?: number;
  pattern?: string;
  options?: string;
  code?: unknown;
  collection?: string;
  oid?: unknown;
  db?: string;
}

const UUID_SUBTYPE = 4;

function plainWrapper(tag: string, v: BsonLike): unknown {
  switch (tag) {
    case 'ObjectId':
    case 'ObjectID':
      return v.toHexString ? v.toHexString() : v.toString();
    case 'Long': {
      const big = v.toBigInt ? v.toBigInt() : BigInt(v.toString());
      const n = Number(big);
      return Number.isSafeInteger(n) ? n : big;
    }
    case 'Int32':
    case 'Double':
      return Number(v.valueOf ? v.valueOf() : v.toString());
    case 'Decimal128':
      return v.toString();
    case 'Binary':
      if (v.sub_type === UUID_SUBTYPE && v.toUUID) return v.toUUID().toHexString(true);
      return new Uint8Array(v.buffer ?? new Uint8Array(0));
    case 'UUID':
      return v.toHexString ? v.toHexString() : v.toString();
    case 'Timestamp':
      return { t: v.t ?? v.high, i: v.i ?? v.low };
    case 'BSONRegExp':
      return { pattern: v.pattern, options: v.options };
    case 'DBRef':
      return { $ref: v.collection, $id: plainFromBson(v.oid), ...(v.db ? { $db: v.db } : {}) };
    case 'Code':
      return String(v.code);
    case 'MinKey':
      return { $minKey: 1 };
    case 'MaxKey':
      return { $maxKey: 1 };
    default:
      return v.toString();
  }
}
