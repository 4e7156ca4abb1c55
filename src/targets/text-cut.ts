/**
 * Cutting a target's text down to what a report keeps. Secrets are masked before the cut, never
 * after it: a cut through a secret leaves a piece that no longer matches the secret, so a
 * redactor run afterwards would let that piece through.
 */

/** What every cut ends with. The Redactor masks a piece of a secret found right before it. */
export const CUT_MARK = '…';

/** How much of a request or response body (or of stderr) a recorded exchange keeps. */
export const BODY_PREVIEW_CHARS = 4096;

/**
 * The first `max` characters of `text`, then {@link CUT_MARK} and how many characters were
 * left out (`beyond` more that the caller did not pass). Never splits a surrogate pair. Use {@link redactedPreview} for a target's text
 * whenever the secrets are known; a text cut here without them relies on the Redactor
 * recognising a piece of a secret right before the mark.
 */
export function cutText(text: string, max: number, beyond = 0): string {
  if (text.length <= max && beyond === 0) return text;
  let cut = Math.min(max, text.length);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${detached(text.slice(0, cut))}${CUT_MARK} (${text.length - cut + beyond} more characters)`;
}

/**
 * `piece` as a string of its own. A piece sliced out of a longer string refers to the whole of
 * it in V8 (a sliced string), so the few kilobytes a report keeps of a 50 MB body would keep
 * the 50 MB alive; a copy lets the whole go. UTF-16 both ways keeps every code unit, lone
 * surrogates included.
 */
export function detached(piece: string): string {
  return Buffer.from(piece, 'utf16le').toString('utf16le');
}

/**
 * How far past the cut a long text is read for secrets before it is cut: more than any secret
 * (in any form the Redactor knows) is long, so every secret that can reach the part shown is
 * masked whole.
 */
export const PREVIEW_MARGIN = 64 * 1024;

/**
 * `text` with every secret masked by `redact` first, then cut to `max` characters. Of a long
 * text only the head is masked and cut (what lies beyond it is counted, never shown): masking a
 * whole 50 MB body to keep 4 KB of it would copy the 50 MB once more.
 */
export function redactedPreview(text: string, max: number, redact: (text: string) => string): string {
  const window = max + PREVIEW_MARGIN;
  if (text.length <= window) return cutText(redact(text), max);
  // masks can shorten the head below `max`: it is still a cut, and says so
  return cutText(redact(text.slice(0, window)), max, text.length - window);
}

/** The last `max` characters of `text`, after a cut mark saying how many came before (the tail of a log). */
export function cutTail(text: string, max: number): string {
  if (text.length <= max) return text;
  let from = text.length - max;
  const first = text.charCodeAt(from);
  if (first >= 0xdc00 && first <= 0xdfff) from += 1;
  return `(${from} earlier characters) ${CUT_MARK}${detached(text.slice(from))}`;
}
