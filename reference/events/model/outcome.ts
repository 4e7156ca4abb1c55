/**
 * What a model operation answers: its value, or why it refuses. The model knows no HTTP; the
 * server maps `invalid` to 400 (monitoring) or 422 (platform), `not-found` to 404,
 * `forbidden` to 403 and `gone` to 410.
 */
export type Outcome<T> = { ok: true; value: T } | Refusal;

export interface Refusal {
  ok: false;
  kind: 'invalid' | 'not-found' | 'forbidden' | 'gone';
  /** Every problem found, in plain words (the monitoring API answers them all at once). */
  messages: string[];
}

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const invalid = (...messages: string[]): Refusal => ({ ok: false, kind: 'invalid', messages });
export const notFound = (message: string): Refusal => ({ ok: false, kind: 'not-found', messages: [message] });
export const forbidden = (message: string): Refusal => ({ ok: false, kind: 'forbidden', messages: [message] });
export const gone = (message: string): Refusal => ({ ok: false, kind: 'gone', messages: [message] });
