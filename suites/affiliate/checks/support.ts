import { SpecgateError } from '../../../src/errors.js';
import type { Exchange } from '../../../src/engine/model.js';
import type { CheckContext, CheckResponse, FailureInput } from '../../../src/engine/suite-module.js';

/** What judging an answer reads of it. */
export type Answer = Pick<CheckResponse, 'status' | 'body'>;

/** A JSON object of an answer (records, bodies). */
export type Json = Record<string, unknown>;

/** Whether an answer is a success: HTTP 200 or 201 (spec 001, Errors 1). */
export function success(res: Answer): boolean {
  return res.status === 200 || res.status === 201;
}

/** A field of an object answer (undefined for anything else). */
export function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Json)[name] : undefined;
}

/** The value at a dotted path of an object answer (`total.items`, `data.items`). */
export function at(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, name) => field(v, name), body);
}

/**
 * Why an answer is not a refusal as the spec lets one be judged (Errors 1 and 3): anything but
 * 200/201, with the target's `refusal_status` when it gives one (the spec does not show the
 * codes). The error text (messages[0]) is not read here: it is AFF-ERROR-MESSAGES's, judged by
 * cases of its own, so a refusal without it fails that rule only. Undefined when it is one.
 */
export function notRefused(ctx: CheckContext, res: Answer, what: string): string | undefined {
  if (success(res)) return `${what} answered ${res.status}, a success; expected a refusal`;
  const wanted = ctx.vars['refusal_status'];
  if (wanted !== undefined && wanted !== '' && String(res.status) !== String(wanted)) return `${what} answered ${res.status}; the target's refusal_status is ${String(wanted)}`;
  return undefined;
}

/**
 * Why an answer is not an error answer at all (any status but 200/201), whatever refusal_status
 * says: validation refusals may have their own status. The error text is AFF-ERROR-MESSAGES's.
 */
export function notErrorAnswer(res: Answer, what: string): string | undefined {
  if (success(res)) return `${what} answered ${res.status}, a success; expected an error answer`;
  return undefined;
}

/**
 * A rule the case rests on does not hold (`owner`): when the case judges `owner` itself, the
 * finding is its failure; otherwise the case ends blocked by it, never failed (a refusal or a
 * list read after a broken step proves nothing about the case's own rules). Callers return
 * right after it.
 */
export function unmet(ctx: CheckContext, owner: string, message: string, res?: { exchange: Exchange }): void {
  if (ctx.requirements.includes(owner)) {
    ctx.fail({ ...failure(message, res), requirement: owner });
    return;
  }
  ctx.blocked(owner, message, res?.exchange);
}

/** A failure naming the answer it was seen in. */
export function failure(message: string, res?: { exchange: Exchange }, more: Omit<FailureInput, 'message' | 'exchange'> = {}): FailureInput {
  return { message, ...more, ...(res ? { exchange: res.exchange } : {}) };
}

/** A string variable of the target, or a configuration error naming it. */
export function textVar(ctx: CheckContext, name: string): string {
  const v = ctx.vars[name];
  if (v === undefined || v === null || v === '') throw new SpecgateError('SG_CONFIG', `case ${ctx.caseId} needs the variable ${name}; set it in the target profile's vars:`);
  return String(v);
}

/** The window the target says holds its leads and conversions. */
export function windowOf(ctx: CheckContext): { fromDate: string; toDate: string } {
  return { fromDate: textVar(ctx, 'from_date'), toDate: textVar(ctx, 'to_date') };
}

/**
 * Canonical text of a record (keys sorted at every level, bigints as their digits in a string),
 * to compare lists as multisets. JSON text otherwise: what JSON.stringify leaves out of an object
 * (undefined, functions) is left out, and is null in an array. Written out rather than as a
 * JSON.stringify replacer that rebuilds every object sorted: list comparisons key every record of
 * every page they read, and that was most of a platform run's time in the checks.
 */
export function recordKey(value: unknown): string {
  if (typeof value !== 'object' || value === null) return canonical(value) ?? 'null';
  // a record read from an answer is keyed again by every property run and every list compared
  // with it; answers are parsed once and never changed, so its text is kept with it
  const known = keyed.get(value);
  if (known !== undefined) return known;
  const key = canonical(value) ?? 'null';
  keyed.set(value, key);
  return key;
}

/** Canonical texts of the records keyed so far, gone with the records. */
const keyed = new WeakMap<object, string>();

function canonical(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return `"${v.toString()}"`;
    case 'object': {
      if (v === null) return 'null';
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return canonical((toJSON as () => unknown).call(v));
      if (Array.isArray(v)) return `[${v.map((x) => canonical(x) ?? 'null').join(',')}]`;
      const o = v as Record<string, unknown>;
      const parts: string[] = [];
      for (const k of Object.keys(o).sort()) {
        const text = canonical(o[k]);
        if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/** Counts of each key. */
export function countKeys(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/**
 * How two lists of records differ as multisets: records of `expected` the `actual` list lacks,
 * and records of `actual` beyond `expected`. Both empty when they hold the same records.
 */
export function multisetDiff(expected: readonly unknown[], actual: readonly unknown[]): { missing: string[]; extra: string[] } {
  // what a right answer is, checked without keying a record: the same records in the same order
  if (expected.length === actual.length && expected.every((e, i) => sameFlatRecord(e, actual[i]))) return { missing: [], extra: [] };
  const want = countKeys(expected.map(recordKey));
  const got = countKeys(actual.map(recordKey));
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of want) for (let i = got.get(k) ?? 0; i < n; i++) missing.push(k);
  for (const [k, n] of got) for (let i = want.get(k) ?? 0; i < n; i++) extra.push(k);
  return { missing, extra };
}

/**
 * The records of `actual` beyond `expected`, as {@link multisetDiff} finds them: none when
 * `actual` holds records of `expected` in their order (what a filtered list of a right answer
 * is, checked without keying a record), otherwise by the canonical keys.
 */
export function extraRecords(expected: readonly unknown[], actual: readonly unknown[]): string[] {
  let next = 0;
  for (const a of actual) {
    while (next < expected.length && !sameFlatRecord(expected[next], a)) next++;
    if (next === expected.length) return multisetDiff(expected, actual).extra;
    next++;
  }
  return [];
}

/**
 * Whether two values are shown equal without their canonical keys: the same value, or flat
 * records (every value a string, a finite number, a boolean or null) with the same keys and
 * equal values, whose keys are then equal too. False says only "not shown here": callers then
 * compare the keys.
 */
function sameFlatRecord(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) return false;
  const x = a as Json;
  const y = b as Json;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    const v = x[k];
    const t = typeof v;
    if (!(t === 'string' || t === 'boolean' || v === null || (t === 'number' && Number.isFinite(v)))) return false;
    if (y[k] !== v || !Object.prototype.hasOwnProperty.call(y, k)) return false;
  }
  // toJSON decides what a record's key is: a record with one is keyed
  return typeof x['toJSON'] !== 'function' && typeof y['toJSON'] !== 'function';
}

/** `YYYY-MM-DD HH:mm:ss` (the spec's date format), also read from an ISO form with T. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;

/** The spec's date format of a record's date, or undefined when it has another form. */
export function dateTime(value: unknown): string | undefined {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : undefined;
}

/** The weekday of a date in the spec's numbering: 1 Sunday, 2 Monday, ... 7 Saturday. */
export function weekday(date: string): number {
  const day = date.slice(0, 10);
  let n = weekdays.get(day);
  if (n === undefined) {
    const [y, m, d] = day.split('-').map(Number);
    n = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay() + 1;
    if (weekdays.size >= MAX_WEEKDAYS) weekdays.clear();
    weekdays.set(day, n);
  }
  return n;
}

/** The weekdays of the days seen so far (a weekday property asks again of every record each run), emptied when full. */
const weekdays = new Map<string, number>();
const MAX_WEEKDAYS = 10_000;

/** A few record keys for a failure message. */
export function sample(keys: readonly string[], n = 3): string {
  return keys.slice(0, n).map((k) => (k.length > 160 ? `${k.slice(0, 157)}...` : k)).join('; ');
}
