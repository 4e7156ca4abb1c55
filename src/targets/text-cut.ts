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
 * left out. Never splits a surrogate pair. Use {@link redactedPreview} for a target's text
 * whenever the secrets are known; a text cut here without them relies on the Redactor
 * recognising a piece of a secret right before the mark.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}${CUT_MARK} (${text.length - cut} more characters)`;
}

/** `text` with every secret masked by `redact` first, then cut to `max` characters. */
export function redactedPreview(text: string, max: number, redact: (text: string) => string): string {
  return cutText(redact(text), max);
}

/** The last `max` characters of `text`, after a cut mark saying how many came before (the tail of a log). */
export function cutTail(text: string, max: number): string {
  if (text.length <= max) return text;
  let from = text.length - max;
  const first = text.charCodeAt(from);
  if (first >= 0xdc00 && first <= 0xdfff) from += 1;
  return `(${from} earlier characters) ${CUT_MARK}${text.slice(from)}`;
}
