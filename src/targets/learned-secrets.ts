/**
 * Credentials a target issues while it is judged (access and refresh tokens, authorization
 * codes, client secrets of a registration, session cookies), learned one by one as its answers
 * arrive and masked by the Redactor from then on (short ones only where a whole value equals
 * them, see {@link MIN_IN_TEXT}). Unlike the secrets known before a run, they
 * can number in the thousands, so each costs little: its literal spellings only (raw,
 * percent-encoded, JSON-escaped), found by one scan of a text that looks each place up by its
 * first characters (a value learned costs a few index entries, and a text about one hash per
 * character, however many values there are), and its pieces at a cut found by looking the cut's
 * neighbourhood up, never by listing every piece in advance.
 */
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
/**
 * Spellings per block. A text is masked as if each block were one pattern of its spellings,
 * longest first, matched left to right: within a block a match hides the spellings that start
 * inside it, across blocks the matches are joined where they overlap.
 */
const BLOCK = 256;
/** Bits of the hash of a spelling's first four characters, which tells most places of a text that none starts there. */
const HEAD_BITS = 20;


/**
 * The spellings of an issued value a report can show: raw, inside a URL or a form body (both hex
 * cases), inside a JSON string. Issued values are mostly made of URL-safe characters, so these
 * are usually one and the same.
 */
export function spellings(value: string): string[] {
  const uri = encodeURIComponent(value);
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  const lower = (t: string): string => t.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  return [...new Set([value, uri, lower(uri), form, lower(form), JSON.stringify(value).slice(1, -1)])];
}

/** A spelling of a learned value of {@link MIN_IN_TEXT} characters or more, and the block it is in. */
interface Form {
  text: string;
  block: number;
}

/** The hash of the four characters of `s` from `i` on, in {@link HEAD_BITS} bits. */
function headHash(s: string, i: number): number {
  return Math.imul(s.charCodeAt(i) ^ (s.charCodeAt(i + 1) << 7) ^ (s.charCodeAt(i + 2) << 14) ^ (s.charCodeAt(i + 3) << 21), 0x9e3779b1) >>> (32 - HEAD_BITS);
}

/** The learned values of one run, and what masks them. */
export class LearnedSecrets {
  private readonly values = new Set<string>();
  /** Spellings by their first {@link MIN_IN_TEXT} characters, longest first. */
  private readonly starts = new Map<string, Form[]>();
  /** One bit per {@link headHash} of a spelling's start: clear where no spelling starts (made with the first). */
  private heads: Uint32Array | undefined;
  /** Spellings in the newest block, and how many blocks there are. */
  private inBlock = 0;
  private blocks = 0;
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
    if (this.blocks === 0 || this.inBlock >= BLOCK) {
      this.blocks++;
      this.inBlock = 0;
    }
    for (const form of spellings(value)) {
      this.inBlock++;
      this.indexStart({ text: form, block: this.blocks - 1 });
      index(this.byHead, form.slice(0, this.minLength), form);
      index(this.byTail, form.slice(-this.minLength), form);
      this.longest = Math.max(this.longest, form.length);
    }
    return true;
  }

  /** Files a spelling under its first characters, after the longer ones (and those of its length filed before it). */
  private indexStart(form: Form): void {
    const key = form.text.slice(0, MIN_IN_TEXT);
    const list = this.starts.get(key);
    if (!list) this.starts.set(key, [form]);
    else {
      let at = list.length;
      while (at > 0 && (list[at - 1] as Form).text.length < form.text.length) at--;
      list.splice(at, 0, form);
    }
    const heads = (this.heads ??= new Uint32Array(2 ** HEAD_BITS / 32));
    const h = headHash(form.text, 0);
    heads[h >>> 5] = (heads[h >>> 5] as number) | (1 << (h & 31));
  }

  /**
   * `s` with every spelling of every learned value of {@link MIN_IN_TEXT} characters or more,
   * and every piece of one at a cut mark, replaced by `mask`.
   */
  mask(s: string, mask: string): string {
    if (this.inText === 0) return s;
    const spans = this.matches(s);
    const out = spans ? masked(s, spans, mask) : s;
    return out.includes(CUT_MARK) || out.includes('...') ? this.maskPieces(out, mask) : out;
  }

  /**
   * Where spellings stand in `s`: at each place, the longest spelling of each block that starts
   * there, unless a match of that block covers the place. Matches of different blocks may
   * overlap (masked() joins them): a value containing one of another block is masked whole,
   * whichever block holds the longer one.
   */
  private matches(s: string): [number, number][] | undefined {
    let spans: [number, number][] | undefined;
    // where each block's last match ends: its spellings starting before that are hidden
    const free: number[] = new Array<number>(this.blocks).fill(0);
    const heads = this.heads;
    if (heads === undefined) return undefined;
    for (let i = 0, last = s.length - MIN_IN_TEXT; i <= last; i++) {
      const h = headHash(s, i);
      if (((heads[h >>> 5] as number) & (1 << (h & 31))) === 0) continue;
      const forms = this.starts.get(s.slice(i, i + MIN_IN_TEXT));
      if (forms === undefined) continue;
      for (const { text, block } of forms) {
        if (i >= (free[block] as number) && s.startsWith(text, i)) {
          (spans ??= []).push([i, i + text.length]);
          free[block] = i + text.length;
        }
      }
    }
    return spans;
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
export function masked(s: string, spans: [number, number][], mask: string): string {
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
