/**
 * JSON text of object keys: the same few repeat in every item of a list, so each is escaped once.
 * Bounded, as keys of posted bodies are the client's to choose.
 */
const KEY_TEXT = new Map<string, string>();
const KEY_TEXT_MAX = 4096;

function keyText(key: string): string {
  let text = KEY_TEXT.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (KEY_TEXT.size < KEY_TEXT_MAX) KEY_TEXT.set(key, text);
  }
  return text;
}

/**
 * JSON text of an answer. JSON.stringify throws on bigint and Node 20 has no JSON.rawJSON, yet
 * int64 ids above 2^53 (monitoring event ids, nanosecond times) must be written as exact JSON
 * numbers, digit for digit; so the text is built here: bigint as its decimal digits, everything
 * else as JSON.stringify writes it (undefined members left out, undefined items as null). The
 * text grows by appending, without an array per object: pages of a thousand events are written
 * this way.
 */
export function jsonText(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      // what JSON.stringify writes for a finite number
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          // a hole stays empty, as it did when items were mapped and joined
          if (!(i in value)) continue;
          const item: unknown = value[i];
          out += item === undefined ? 'null' : jsonText(item);
        }
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      const members = value as Record<string, unknown>;
      for (const k of Object.keys(members)) {
        const v = members[k];
        if (v === undefined || typeof v === 'function') continue;
        out += first ? `${keyText(k)}:${jsonText(v)}` : `,${keyText(k)}:${jsonText(v)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return 'null';
  }
}

/**
 * `jsonText(envelope)` with the member `listKey` written as a JSON array of texts already made
 * (each exactly `jsonText` of its item): a page of a thousand events is joined from the events'
 * kept texts instead of being written again. Members are written as {@link jsonText} writes
 * them, in the same order, undefined ones left out; whatever `envelope[listKey]` holds is not
 * looked at.
 */
export function jsonTextWithList(envelope: Record<string, unknown>, listKey: string, itemTexts: readonly string[]): string {
  let out = '{';
  let first = true;
  for (const k of Object.keys(envelope)) {
    let member: string;
    if (k === listKey) member = `[${itemTexts.join(',')}]`;
    else {
      const v = envelope[k];
      if (v === undefined || typeof v === 'function') continue;
      member = jsonText(v);
    }
    out += first ? `${keyText(k)}:${member}` : `,${keyText(k)}:${member}`;
    first = false;
  }
  return `${out}}`;
}
