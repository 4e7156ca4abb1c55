import { previewJson } from '../../checks/value-preview.js';
import type { Reliance, ValueOrigin } from './advertised-values.js';

/** How much of a text value (a code, a URL) a note quotes. */
const VALUE_CHARS = 24;

/**
 * Names of variables that hold credentials: their values are never quoted, only their length
 * (a token the target issued authorises whoever reads the report).
 */
const CREDENTIAL_NAME = /(^|_)(token|secret|password)$/i;

/** A value a note can show: text, numbers, booleans, or nothing (a field the answer left out). */
function isScalar(v: unknown): boolean {
  return v === undefined || v === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof v);
}

function shownValue(o: ValueOrigin): string {
  const v = o.value;
  if (v === undefined) return `${o.name} (not in the answer)`;
  if (typeof v === 'string' && CREDENTIAL_NAME.test(o.name)) return `${o.name} (a ${v.length}-character value)`;
  if (typeof v === 'bigint') return `${o.name}=${v.toString()}`;
  if (typeof v === 'string' && v.length > VALUE_CHARS) return `${o.name}=${JSON.stringify(v.slice(0, VALUE_CHARS))}…`;
  return `${o.name}=${previewJson(v, VALUE_CHARS) ?? String(v)}`;
}

/** "from step 1, check oauth.deviceStart: POST /login/device/code". */
function source(o: ValueOrigin): string {
  return `step ${o.step}, ${o.check ? `check ${o.check}: ` : ''}${o.via}`;
}

/** Origins that share one source, in the order they were first met. */
function bySource(origins: readonly ValueOrigin[]): ValueOrigin[][] {
  const groups = new Map<string, ValueOrigin[]>();
  for (const o of origins) {
    const key = source(o);
    const g = groups.get(key);
    if (g) g.push(o);
    else groups.set(key, [o]);
  }
  return [...groups.values()];
}

function listed(group: readonly ValueOrigin[], how: string): string {
  const first = group[0];
  return first ? `${group.map(shownValue).join(', ')} (${how} ${source(first)})` : '';
}

/**
 * The note a failure gets when its judgement followed from values the target advertised:
 * `relying on values the target advertised: expires_in=600, interval=5 (captured from step 1,
 * check oauth.deviceStart: POST /login/device/code)`. Values a check set without the answer
 * carrying them (its defaults) are named apart, since the target did not advertise them.
 * Objects and lists (a whole answer captured to be judged) are left out: they are what a check
 * judges, not a value it relied on. Undefined when nothing is left to name.
 */
export function relianceNote(origins: readonly ValueOrigin[]): string | undefined {
  const shown = origins.filter((o) => isScalar(o.value));
  const advertised = bySource(shown.filter((o) => o.inAnswer)).map((g) => listed(g, 'captured from'));
  const filled = bySource(shown.filter((o) => !o.inAnswer)).map((g) => listed(g, 'not found in its answers; set by'));
  const parts: string[] = [];
  if (advertised.length) parts.push(`relying on values the target advertised: ${advertised.join('; ')}`);
  if (filled.length) parts.push(`${advertised.length ? 'and ' : ''}relying on values a check set itself: ${filled.join('; ')}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** How a failure is explained: a lead before its message, a note after it. */
export interface FailureNote {
  lead?: string;
  tail?: string;
}

/**
 * Explains a failing step: a value it judges that is missing because its answer did not decode
 * leads with the decoding error (the rest of the message only follows from it); the values of
 * the target's it relied on are named after the message.
 */
export function advertisedNote(r: Reliance): FailureNote {
  const leads = r.judged.filter((o) => o.undecoded !== undefined && o.value === undefined).map((o) => `${o.via} (step ${o.step}): ${o.undecoded ?? ''}`);
  const tail = relianceNote(r.reliedOn);
  return { ...(leads.length ? { lead: [...new Set(leads)].join('; ') } : {}), ...(tail ? { tail } : {}) };
}

/** A failure message with its explanation: the lead first, the note after a dash. */
export function explained(message: string, note: FailureNote | undefined): string {
  if (!note) return message;
  return `${note.lead ? `${note.lead}; ` : ''}${message}${note.tail ? ` — ${note.tail}` : ''}`;
}
