import { parseDateTime, parseTimeOfDay } from './dates.js';

/** A query string as the model reads it (URLSearchParams is one). */
export interface QueryLike {
  get(name: string): string | null;
  entries(): IterableIterator<[string, string]>;
}

/**
 * Reads the parameters of one list request and collects every problem, so a refusal names
 * them all. An empty value counts as absent; anything present but malformed is a problem
 * (the reference refuses what its tables do not allow rather than guess).
 */
export class QueryReader {
  readonly problems: string[] = [];

  constructor(private readonly q: QueryLike) {}

  /** A value, or undefined when absent or empty. */
  text(name: string): string | undefined {
    const v = this.q.get(name);
    return v === null || v === '' ? undefined : v;
  }

  /** An integer in [min, max]. */
  int(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be an integer${bounds(min, max)}; got ${JSON.stringify(v)}`);
      return undefined;
    }
    return n;
  }

  /** A boolean as the tables give it: 0 false, 1 true (also `true`/`false`). */
  flag(name: string): boolean | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    this.problems.push(`${name} must be 0 or 1; got ${JSON.stringify(v)}`);
    return undefined;
  }

  /** Every value of an array parameter: `name[]=a&name[]=b`, also `name[0]=a` and `name=a`. */
  list(name: string): string[] {
    const out: string[] = [];
    for (const [k, v] of this.q.entries()) {
      if (v === '') continue;
      if (k === name || k === `${name}[]` || (k.startsWith(`${name}[`) && /^\[\d+\]$/.test(k.slice(name.length)))) out.push(v);
    }
    return out;
  }

  /** An array of integers in [min, max]; undefined when the parameter is absent. */
  intList(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number[] | undefined {
    const values = this.list(name);
    if (!values.length) return undefined;
    const out: number[] = [];
    for (const v of values) {
      const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max) this.problems.push(`${name}[] items must be integers${bounds(min, max)}; got ${JSON.stringify(v)}`);
      else out.push(n);
    }
    return out;
  }

  /** A `YYYY-MM-DD HH:mm:ss` instant; `required` ones are a problem when absent. */
  dateTime(name: string, required: boolean): number | undefined {
    const v = this.text(name);
    if (v === undefined) {
      if (required) this.problems.push(`${name} is required (YYYY-MM-DD HH:mm:ss)`);
      return undefined;
    }
    const ms = parseDateTime(v);
    if (ms === undefined) this.problems.push(`${name} must be a date and time YYYY-MM-DD HH:mm:ss; got ${JSON.stringify(v)}`);
    return ms;
  }

  /** A `HH:mm:ss` time of day, in seconds since midnight. */
  timeOfDay(name: string): number | undefined {
    const v = this.text(name);
    if (v === undefined) return undefined;
    const s = parseTimeOfDay(v);
    if (s === undefined) this.problems.push(`${name} must be a time of day HH:mm:ss; got ${JSON.stringify(v)}`);
    return s;
  }
}

function bounds(min: number, max: number): string {
  if (min > Number.MIN_SAFE_INTEGER && max < Number.MAX_SAFE_INTEGER) return ` from ${min} to ${max}`;
  if (min > Number.MIN_SAFE_INTEGER) return ` of at least ${min}`;
  return '';
}
