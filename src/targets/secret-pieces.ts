import { CUT_MARK } from './text-cut.js';

/**
 * A cut through a secret leaves a piece of it that no longer matches the secret: the head of
 * it when the text was cut after it (`…Q7vLm2X…`), the tail when cut before it. Code that knows
 * the secrets masks them before cutting (src/targets/text-cut.ts); this is the safety net for
 * text cut without them, and for a cut made by others (V8 quotes a window of the text in a JSON
 * syntax error). A cut is recognised by its mark: `…` (what specgate cuts with) or `...`,
 * possibly with a quote between the piece and the mark, as when a quoted string is cut.
 */
const MARK = /…|\.\.\./g;
export const QUOTES: ReadonlySet<string> = new Set(['"', "'"]);

/** A stretch of a text: from `start` up to `end`. */
export interface Span {
  start: number;
  end: number;
}

/**
 * `s` with the pieces that touch a cut mark replaced by `mask`: for each mark, the head found
 * by `headBefore` (ending at the mark, not reaching before what was already masked) and the
 * tail found by `tailAfter` (starting right after it).
 */
export function maskAtCuts(s: string, mask: string, headBefore: (s: string, from: number, end: number) => Span | undefined, tailAfter: (s: string, start: number) => Span | undefined): string {
  let out = '';
  let from = 0;
  for (const m of s.matchAll(MARK)) {
    const at = m.index;
    if (at < from) continue;
    const head = headBefore(s, from, at);
    if (head) {
      out += s.slice(from, head.start) + mask + s.slice(head.end, at);
      from = at;
    }
    const tail = tailAfter(s, at + m[0].length);
    if (tail) {
      out += s.slice(from, tail.start) + mask;
      from = tail.end;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** A piece of a form: `length` characters from `start`. */
interface Piece {
  form: string;
  start: number;
  length: number;
}

/** Whether `s` holds `p` at `at`, compared in place (a long secret has many pieces). */
function holds(s: string, at: number, p: Piece): boolean {
  if (at < 0 || at + p.length > s.length) return false;
  for (let i = 0; i < p.length; i++) if (s.charCodeAt(at + i) !== p.form.charCodeAt(p.start + i)) return false;
  return true;
}

/** Pieces of a set of secret forms, indexed by the character they end (heads) or start (tails) with. */
export class SecretPieces {
  private readonly heads = new Map<string, Piece[]>();
  private readonly tails = new Map<string, Piece[]>();

  /**
   * @param forms every spelling of every secret (raw, encoded, escaped, ...)
   * @param minLength shorter pieces say too little of a secret, and would mask innocent text
   */
  constructor(forms: Iterable<string>, minLength: number) {
    const add = (index: Map<string, Piece[]>, key: string, piece: Piece): void => {
      const list = index.get(key);
      if (list) list.push(piece);
      else index.set(key, [piece]);
    };
    for (const form of forms) {
      for (let n = minLength; n < form.length; n++) {
        add(this.heads, form.charAt(n - 1), { form, start: 0, length: n });
        add(this.tails, form.charAt(form.length - n), { form, start: form.length - n, length: n });
      }
    }
    // longest first: the whole piece is masked, not just its end
    for (const index of [this.heads, this.tails]) for (const list of index.values()) list.sort((a, b) => b.length - a.length);
  }

  /** `s` with every piece of a secret that touches a cut mark replaced by `mask`. */
  mask(s: string, mask: string): string {
    if (this.heads.size === 0 || (!s.includes(CUT_MARK) && !s.includes('...'))) return s;
    return maskAtCuts(s, mask, (t, from, end) => this.headBefore(t, from, end), (t, start) => this.tailAfter(t, start));
  }

  /** The head of a form that ends at `end` (or one quote before it), not reaching before `from`. */
  private headBefore(s: string, from: number, end: number): Span | undefined {
    for (const stop of QUOTES.has(s.charAt(end - 1)) ? [end, end - 1] : [end]) {
      for (const p of this.heads.get(s.charAt(stop - 1)) ?? []) {
        const start = stop - p.length;
        if (start >= from && holds(s, start, p)) return { start, end: stop };
      }
    }
    return undefined;
  }

  /** The tail of a form that starts at `start` (or one quote after it). */
  private tailAfter(s: string, start: number): Span | undefined {
    for (const begin of QUOTES.has(s.charAt(start)) ? [start, start + 1] : [start]) {
      for (const p of this.tails.get(s.charAt(begin)) ?? []) if (holds(s, begin, p)) return { start: begin, end: begin + p.length };
    }
    return undefined;
  }
}
