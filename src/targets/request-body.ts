import { stringify as stringifyLossless } from 'lossless-json';
import { SpecgateError } from '../errors.js';

/**
 * Encodes form fields as `application/x-www-form-urlencoded` (the WHATWG serializer: space → `+`).
 * Scalars are written with String(); a list repeats the name; `undefined` omits the field;
 * `null` sends an empty value. Objects are refused: a form has no nesting.
 */
export function encodeForm(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) {
      for (const item of value) params.append(name, formScalar(name, item));
    } else if (value !== undefined) {
      params.append(name, formScalar(name, value));
    }
  }
  return params.toString();
}

function formScalar(name: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    throw new SpecgateError(
      'SG_SUITE_SCHEMA',
      `form field "${name}" is an object; form values must be strings, numbers, booleans or lists of them (use json: for nested data)`,
    );
  }
  return String(value);
}

/**
 * JSON.stringify that writes `bigint` values as their exact digits (`9007199254740993`, not a
 * string and not a rounded double), so int64 ids sent to a target are the ones the case meant.
 */
export function encodeJson(value: unknown): string {
  try {
    // The native serializer is the fast path; it throws only when it meets a bigint.
    const s = JSON.stringify(value);
    return s === undefined ? 'null' : s;
  } catch (e) {
    if (!(e instanceof TypeError) || !e.message.includes('BigInt')) throw e;
    const s = stringifyLossless(value);
    return s === undefined ? 'null' : s;
  }
}
