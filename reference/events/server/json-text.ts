import { SpecgateError } from '../../../src/errors.js';

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
 * The UTF-8 bytes of `jsonText(envelope)` with the member `listKey` written as a JSON array of
 * items whose bytes are already made (each exactly the UTF-8 of `jsonText` of its item): a page
 * of a thousand events is copied together from the events' kept bytes, neither written nor
 * encoded again. Members are written as {@link jsonText} writes them, in the same order,
 * undefined ones left out; the list goes where the key `listKey` stands among them (give it as
 * undefined), whatever it holds.
 */
export function jsonBytesWithList(envelope: Record<string, unknown>, listKey: string, items: readonly Uint8Array[]): Buffer {
  let head = '{';
  let tail = '';
  let seen = false;
  let first = true;
  for (const k of Object.keys(envelope)) {
    const v = envelope[k];
    if (k !== listKey && (v === undefined || typeof v === 'function')) continue;
    const key = first ? `${keyText(k)}:` : `,${keyText(k)}:`;
    first = false;
    if (k === listKey) {
      head += `${key}[`;
      tail = ']';
      seen = true;
    } else if (seen) tail += key + jsonText(v);
    else head += key + jsonText(v);
  }
  tail += '}';
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  if (seen) {
    for (const item of items) size += item.length;
    // the commas between items
    size += Math.max(items.length - 1, 0);
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, 'utf8');
  if (seen) {
    let i = 0;
    for (const item of items) {
      if (i++ > 0) at = out.writeUInt8(COMMA, at);
      out.set(item, at);
      at += item.length;
    }
  }
  at += out.write(tail, at, 'utf8');
  if (at !== size) throw new SpecgateError('SG_INTERNAL', `a list answer came to ${at} bytes, ${size} were counted`);
  return out;
}

const COMMA = 0x2c;
