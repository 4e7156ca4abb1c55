/**
 * Credentials a target issues while it is judged (access and refresh tokens, authorization
 * codes, client secrets of a registration, session cookies), learned one by one as its answers
 * arrive and masked by the Redactor from then on (short ones only where a whole value equals
 * them, see {@link MIN_IN_TEXT}). Unlike the secrets known before a run, they
 * can number in the thousands, so each costs little: its literal spellings only (raw,
 * percent-encoded, JSON-escaped), matched by patterns rebuilt lazily and in blocks (a value
 * learned costs one small pattern's rebuild, not one over every value), and its pieces at a cut
 * found by looking the cut's neighbourhood up, never by listing every piece in advance.
 */
import { escapeRegExp } from './secret-forms.js';
import { QUOTES, maskAtCuts, type Span } from './secret-pieces.js';
import { CUT_MARK } from './text-cut.js';

/** Values learned in one run at most: past it, further ones are counted and the caller told once. */
export const MAX_LEARNED = 4096;
/**
 * Shorter values are masked only where a whole value equals them. A target decides what it
 * issues: a `"refresh_token": "none"` masked inside every text would mangle case IDs and
 * messages, where the secrets known before the run are the user's own choice.
 */
export const MIN_IN_TEXT = 8;
/** Values per pattern: the newest block is rebuilt when a value joins it, the older ones stay compiled. */
const BLOCK = 256;


/**
 * The spellings of an issued value a report can show: raw, inside a URL or a form body (both hex
 * cases), inside a JSON string. Issued values are mostly made of URL-safe characters, so these
 * are usually one and the same.
 */
function spellings(value: string): string[] {
  const uri = encodeURIComponent(value);
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  const lower = (t: string): string => t.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  return [...new Set([value, uri, lower(uri), form, lower(form), JSON.stringify(value).slice(1, -1)])];
}

/** One block of learned values: their spellings and the pattern made of them (made when first used). */
interface Block {
  forms: string[];
  pattern: RegExp | undefined;
}

/** The learned values of one run, and what masks them. */
export class LearnedSecrets {
  private readonly values = new Set<string>();
  private readonly blocks: Block[] = [];
  /** Spellings by their first `minLength` characters (heads of a cut piece) and their last (tails). */
  private readonly byHead = new Map<string, string[]>();
  private readonly byTail = new Map<string, string[]>();
  private longest = 0;
  /** Values masked inside texts (those of {@link MIN_IN_TEXT} characters or more). */
  private inText = 0;
  /** Values refused once the run had learned {@link MAX_LEARNED}. */
  refused = 0;

  /**
   * @param minLength values shorter than this are not learned (they would mask innocent text);
   * it is also the shortest piece of a value masked at a cut
   */
  constructor(private readonly minLength: number) {}

  get size(): number {
    return this.values.size;
  }

  /** Whether `value` is one this run learned: masked where a whole value (a string, a Bearer token) equals it. */
  has(value: string): boolean {
    return this.values.has(value);
  }

  /** Learns `value`; false when it was not (already known, too short, or the run learned its fill). */
  add(value: string): boolean {
    if (value.length < this.minLength || this.values.has(value)) return false;
    if (this.values.size >= MAX_LEARNED) {
      this.refused++;
      return false;
    }
    this.values.add(value);
    if (value.length < MIN_IN_TEXT) return true;
    this.inText++;
    let block = this.blocks[this.blocks.length - 1];
    if (!block || block.forms.length >= BLOCK) this.blocks.push((block = { forms: [], pattern: undefined }));
    for (const form of spellings(value)) {
      block.forms.push(form);
      index(this.byHead, form.slice(0, this.minLength), form);
      index(this.byTail, form.slice(-this.minLength), form);
      this.longest = Math.max(this.longest, form.length);
    }
    block.pattern = undefined;
    return true;
  }

  /**
   * `s` with every spelling of every learned value of {@link MIN_IN_TEXT} characters or more,
   * and every piece of one at a cut mark, replaced by `mask`.
   */
  mask(s: string, mask: string): string {
    if (this.inText === 0) return s;
    // the matches of every block, joined where they overlap: a value containing one of another
    // block is masked whole, whichever block holds the longer one
    let spans: [number, number][] | undefined;
    for (const block of this.blocks) {
      // longest first, so that a value containing another of its block is masked whole
      const pattern = (block.pattern ??= new RegExp([...block.forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g'));
      pattern.lastIndex = 0;
      for (let m = pattern.exec(s); m !== null; m = pattern.exec(s)) (spans ??= []).push([m.index, m.index + m[0].length]);
    }
    const out = spans ? masked(s, spans, mask) : s;
    return out.includes(CUT_MARK) || out.includes('...') ? this.maskPieces(out, mask) : out;
  }

  /**
   * Masks the head of a spelling that ends at a cut mark, and the tail of one that starts right
   * after it (either may have a quote between it and the mark), as SecretPieces does for the
   * secrets known before the run.
   */
  private maskPieces(s: string, mask: string): string {
    return maskAtCuts(s, mask, (t, from, end) => this.headBefore(t, from, end), (t, start) => this.tailAfter(t, start));
  }

  /** The longest head of a spelling ending at `end` (or one quote before it), not reaching before `from`. */
  private headBefore(s: string, from: number, end: number): Span | undefined {
    for (const stop of QUOTES.has(s.charAt(end - 1)) ? [end, end - 1] : [end]) {
      for (let start = Math.max(from, stop - this.longest + 1); start <= stop - this.minLength; start++) {
        const piece = s.slice(start, stop);
        if ((this.byHead.get(piece.slice(0, this.minLength)) ?? []).some((form) => form.length > piece.length && form.startsWith(piece))) return { start, end: stop };
      }
    }
    return undefined;
  }

  /** The longest tail of a spelling starting at `start` (or one quote after it). */
  private tailAfter(s: string, start: number): Span | undefined {
    for (const begin of QUOTES.has(s.charAt(start)) ? [start, start + 1] : [start]) {
      for (let end = Math.min(s.length, begin + this.longest - 1); end >= begin + this.minLength; end--) {
        const piece = s.slice(begin, end);
        if ((this.byTail.get(piece.slice(-this.minLength)) ?? []).some((form) => form.length > piece.length && form.endsWith(piece))) return { start: begin, end };
      }
    }
    return undefined;
  }
}

/** `s` with the union of `spans` (start, end) replaced by `mask`. */
function masked(s: string, spans: [number, number][], mask: string): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  let [start, end] = spans[0] as [number, number];
  for (const [a, b] of spans) {
    if (a < end) end = Math.max(end, b);
    else {
      out += s.slice(from, start) + mask;
      from = end;
      [start, end] = [a, b];
    }
  }
  return out + s.slice(from, start) + mask + s.slice(end);
}

function index(map: Map<string, string[]>, key: string, form: string): void {
  const list = map.get(key);
  if (list) list.push(form);
  else map.set(key, [form]);
}
