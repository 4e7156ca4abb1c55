import { LearnedSecrets, MAX_LEARNED } from './learned-secrets.js';
import { base64Cores, escapeRegExp, literalForms } from './secret-forms.js';
import { SecretPieces } from './secret-pieces.js';

/** What a redacted secret is replaced with. */
export const MASK = '***';

const MIN_SECRET = 4;
/** Levels of nesting redaction walks (parsed bodies are already held to 256, body-parse.ts). */
const MAX_REDACT_DEPTH = 512;
const CREDENTIAL = /\b(Basic|Bearer)(\s+)([A-Za-z0-9+/=._~-]+)/gi;
const B64_CHAR = /[A-Za-z0-9+/=_-]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });


/**
 * Removes known secret values from everything a report shows (DESIGN "Targets": credentials
 * from `${env:NAME}` are redacted in every report). A secret is caught raw, URL-encoded (once
 * or twice), form-encoded, JSON-escaped, hex-encoded and base64-encoded (also inside a larger
 * base64 blob such as the `user:secret` of a Basic credential, which is then masked whole).
 * Redact before cutting a text down (src/targets/text-cut.ts); a piece of a secret left by a
 * cut made without the secrets is still masked when the cut is marked (`…` or `...`, see
 * secret-pieces.ts). Secrets shorter than 4 characters would mask innocent text, so they are
 * only masked where a value equals them exactly (a whole string, a Bearer token, one half of a
 * Basic credential).
 *
 * Credentials the target issues during the run are taught to it with {@link learn} as its
 * answers arrive (src/targets/issued-credentials.ts says which): from then on they are masked
 * raw, percent-encoded, JSON-escaped, as a Bearer token or one half of a Basic credential, and
 * as a piece at a cut mark. The engine redacts what a case kept when the case ends, so a value
 * kept before it was learned (a failure quoting the very answer that issued it) is masked too.
 */
export class Redactor {
  private readonly exact: Set<string>;
  private readonly literal: RegExp | undefined;
  private readonly literalTest: RegExp | undefined;
  private readonly cores: RegExp | undefined;
  private readonly pieces: SecretPieces;
  private readonly secretBytes: Buffer[];
  private readonly learned = new LearnedSecrets(MIN_SECRET);
  private readonly onFull: ((max: number) => void) | undefined;

  /** @param opts.onFull called once, when the run has learned its fill of issued credentials and one more arrives */
  constructor(secrets: Iterable<string>, opts: { onFull?: (max: number) => void } = {}) {
    this.onFull = opts.onFull;
    this.exact = new Set([...secrets].filter((s) => s.length > 0));
    const long = [...this.exact].filter((s) => s.length >= MIN_SECRET);
    const forms = new Set(long.flatMap(literalForms));
    const cores = new Set(long.flatMap(base64Cores));
    // Longest first, so that a secret containing another is masked whole.
    const alternation = (set: Set<string>): string => [...set].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
    this.literal = forms.size ? new RegExp(alternation(forms), 'g') : undefined;
    this.literalTest = forms.size ? new RegExp(alternation(forms)) : undefined;
    this.cores = cores.size ? new RegExp(alternation(cores), 'g') : undefined;
    this.pieces = new SecretPieces([...forms, ...cores], MIN_SECRET);
    this.secretBytes = long.map((s) => Buffer.from(s, 'utf8'));
  }

  /** False when there is nothing to redact (then every method returns its input). */
  get active(): boolean {
    return this.exact.size > 0 || this.learned.size > 0;
  }

  /**
   * Masks `values` from now on: credentials the target issued. Those shorter than 4 characters
   * are passed over, and those shorter than 8 are masked only where a whole value equals them
   * (learned-secrets.ts). At most {@link MAX_LEARNED} are kept; the first one refused past that
   * calls `onFull`.
   */
  learn(values: Iterable<string>): void {
    for (const v of values) {
      if (this.exact.has(v)) continue;
      const refused = this.learned.refused;
      this.learned.add(v);
      if (refused === 0 && this.learned.refused === 1) this.onFull?.(MAX_LEARNED);
    }
  }

  /** True when `s` shows a secret in any form this redactor knows. */
  reveals(s: string): boolean {
    return this.redactString(s) !== s;
  }

  /** Replaces every known form of every secret in `s` with `***`. */
  redactString(s: string): string {
    if (!this.active || s.length === 0) return s;
    if (this.exact.has(s) || this.learned.has(s)) return MASK;
    let out = s.replace(CREDENTIAL, this.maskCredential);
    if (this.cores) out = this.maskBase64Runs(out, this.cores);
    if (this.literal) out = out.replace(this.literal, MASK);
    out = this.learned.mask(out, MASK);
    return this.pieces.mask(out, MASK);
  }

  /**
   * A copy of `value` with every secret masked: strings, object keys and values, arrays, Maps,
   * Errors (message, stack, own fields). `bigint`s pass through. A Uint8Array that is UTF-8 text
   * showing a secret becomes the redacted string; binary bytes get the secret's bytes overwritten
   * with `*` (same length, so length-prefixed framing stays readable).
   */
  redactDeep(value: unknown): unknown {
    return this.active ? this.walk(value, new Set()) : value;
  }

  private readonly maskCredential = (whole: string, scheme: string, space: string, token: string): string => {
    if (this.exact.has(token) || this.learned.has(token)) return `${scheme}${space}${MASK}`;
    if (scheme.toLowerCase() !== 'basic') return whole;
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const shows =
      decoded.split(':').some((part) => this.exact.has(part) || this.learned.has(part)) || (this.literalTest?.test(decoded) ?? false) || this.learned.mask(decoded, MASK) !== decoded;
    return shows ? `${scheme}${space}${MASK}` : whole;
  };

  /** Masks each whole base64 run that contains an alignment-independent core of a secret. */
  private maskBase64Runs(s: string, cores: RegExp): string {
    cores.lastIndex = 0;
    let m = cores.exec(s);
    if (m === null) return s;
    let out = '';
    let from = 0;
    while (m !== null) {
      let a = m.index;
      let b = m.index + m[0].length;
      while (a > from && B64_CHAR.test(s.charAt(a - 1))) a--;
      while (b < s.length && B64_CHAR.test(s.charAt(b))) b++;
      out += s.slice(from, a) + MASK;
      from = b;
      cores.lastIndex = b;
      m = cores.exec(s);
    }
    return out + s.slice(from);
  }

  private walk(v: unknown, ancestors: Set<object>): unknown {
    if (typeof v === 'string') return this.redactString(v);
    if (typeof v !== 'object' || v === null) return v;
    if (v instanceof Uint8Array) return this.redactBytes(v);
    if (v instanceof Date) return v;
    if (ancestors.has(v)) return '[Circular]';
    // `ancestors` is the path from the root, so its size is the depth. Deeper values are dropped
    // rather than walked: recursing further could overflow the stack, and passing them on
    // unredacted could show a secret.
    if (ancestors.size >= MAX_REDACT_DEPTH) return `… nested beyond ${MAX_REDACT_DEPTH} levels`;
    ancestors.add(v);
    try {
      if (Array.isArray(v)) return v.map((item) => this.walk(item, ancestors));
      if (v instanceof Map) {
        return new Map([...v].map(([k, val]) => [this.walk(k, ancestors), this.walk(val, ancestors)]));
      }
      const out: Record<string, unknown> = {};
      if (v instanceof Error) {
        const copy = new Error(this.redactString(v.message));
        copy.name = v.name;
        copy.stack = v.stack === undefined ? undefined : this.redactString(v.stack);
        Object.assign(copy, this.walk({ ...v }, ancestors) as object);
        return copy;
      }
      for (const [k, val] of Object.entries(v)) {
        const key = this.redactString(k);
        const red = this.walk(val, ancestors);
        if (key === '__proto__') Object.defineProperty(out, key, { value: red, enumerable: true, writable: true, configurable: true });
        else out[key] = red;
      }
      return out;
    } finally {
      ancestors.delete(v);
    }
  }

  private redactBytes(bytes: Uint8Array): Uint8Array | string {
    let text: string | undefined;
    try {
      text = utf8.decode(bytes);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const red = this.redactString(text);
      return red === text ? bytes : red;
    }
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let copy: Buffer | undefined;
    for (const secret of this.secretBytes) {
      for (let i = buf.indexOf(secret); i !== -1; i = buf.indexOf(secret, i + secret.length)) {
        copy ??= Buffer.from(buf);
        copy.fill(0x2a, i, i + secret.length);
      }
    }
    return copy ?? bytes;
  }
}
