import { recordJson } from '../model/records.js';

/**
 * JSON.stringify of an answer body in UTF-8, with the text of every record the model keeps
 * written once (records.ts) put in as it is: a list answer is mostly such records, so its
 * bytes are mostly copied, not written and encoded again. Arrays and plain objects are written
 * here, key order and omissions as JSON.stringify has them; anything else (a value with toJSON,
 * a class instance, a number, a string) is left to JSON.stringify. Undefined when JSON.stringify
 * writes nothing (the body is undefined or a function).
 */
export function jsonBytes(value: unknown): Buffer | undefined {
  const w = new JsonWriter();
  return w.value(value) ? w.bytes() : undefined;
}

/** Collects JSON text: short pieces as text, kept records as their bytes. */
class JsonWriter {
  private readonly parts: Buffer[] = [];
  private text = '';

  /** Writes a value as JSON.stringify would; false (nothing written) where it writes nothing. */
  value(v: unknown): boolean {
    if (typeof v !== 'object' || v === null) return this.plain(v);
    const known = recordJson(v);
    if (known !== undefined) {
      this.flush();
      this.parts.push(known);
      return true;
    }
    if (Array.isArray(v)) return isPlainArray(v) ? this.array(v) : this.plain(v);
    return isPlainObject(v) ? this.object(v as Record<string, unknown>) : this.plain(v);
  }

  bytes(): Buffer {
    this.flush();
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
  }

  private plain(v: unknown): boolean {
    const text = JSON.stringify(v) as string | undefined;
    if (text === undefined) return false;
    this.text += text;
    return true;
  }

  private array(a: readonly unknown[]): boolean {
    this.text += '[';
    for (let i = 0; i < a.length; i++) {
      if (i) this.text += ',';
      if (!this.value(a[i])) this.text += 'null';
    }
    this.text += ']';
    return true;
  }

  private object(o: Record<string, unknown>): boolean {
    this.text += '{';
    let first = true;
    for (const key of Object.keys(o)) {
      const v = o[key];
      // what JSON.stringify leaves out of an object, checked before the key is written
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      this.text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (!this.value(v)) this.text += 'null';
    }
    this.text += '}';
    return true;
  }

  private flush(): void {
    if (this.text === '') return;
    this.parts.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

/** An array with no toJSON of its own (what JSON.stringify writes of it, item by item). */
function isPlainArray(a: unknown[]): boolean {
  return Object.getPrototypeOf(a) === Array.prototype && !Object.prototype.hasOwnProperty.call(a, 'toJSON');
}

/** An object JSON.stringify writes key by key: from Object.prototype or none, no toJSON. */
function isPlainObject(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (o as { toJSON?: unknown }).toJSON !== 'function';
}
