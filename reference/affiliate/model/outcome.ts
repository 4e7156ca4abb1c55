/**
 * What a model operation answers: its value, or why it refuses. The model knows no HTTP; the
 * reference server maps `invalid` to 400 and `not-found` to 404 (the spec shows no statuses
 * besides 200 and 201, Errors 3).
 */
export type Outcome<T> = { ok: true; value: T } | Refusal;

export interface Refusal {
  ok: false;
  kind: 'invalid' | 'not-found';
  /** Every problem found, in plain words: the first becomes `message` and `messages[0]`. */
  messages: string[];
}

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const invalid = (...messages: string[]): Refusal => ({ ok: false, kind: 'invalid', messages });
export const notFound = (message: string): Refusal => ({ ok: false, kind: 'not-found', messages: [message] });
