/**
 * What a model operation answers: its value, or why it refuses. The model knows no HTTP; the
 * server maps `not-found` to 404, `invalid` to 400 and `conflict` to 409.
 */
export type Outcome<T> = { ok: true; value: T } | Refusal;

export interface Refusal {
  ok: false;
  kind: 'not-found' | 'invalid' | 'conflict';
  message: string;
}

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const notFound = (message: string): Refusal => ({ ok: false, kind: 'not-found', message });
export const invalid = (message: string): Refusal => ({ ok: false, kind: 'invalid', message });
export const conflict = (message: string): Refusal => ({ ok: false, kind: 'conflict', message });

/** A found item, or `not-found` naming what was looked for. */
export function found<T>(value: T | undefined, what: string): Outcome<T> {
  return value === undefined ? notFound(`${what} was not found`) : done(value);
}
