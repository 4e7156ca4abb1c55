/**
 * Text helpers shared by the reporters: making arbitrary target output safe to embed in
 * XML/TAP, and keeping it bounded so one huge response cannot bloat a CI report.
 */

/**
 * Everything XML 1.0 forbids (§2.2 Char): C0 controls other than TAB/LF/CR, lone surrogates
 * (with the `u` flag a lone surrogate is its own code point, so the range test catches it),
 * and U+FFFE/U+FFFF.
 */
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Replaces characters that are illegal in XML 1.0 with U+FFFD. A replacement character
 * (rather than silent deletion) leaves a visible trace that the target sent something odd.
 */
export function cleanText(text: string): string {
  return text.replace(ILLEGAL_XML_CHARS, '\uFFFD');
}

/** Default cap for one failure body in a report (~64 KiB of text). */
export const BODY_CAP = 64 * 1024;

/**
 * Cuts `text` to at most `max` UTF-16 units and says so. Never splits a surrogate pair:
 * half an emoji would become a lone surrogate, which is illegal XML.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}\n… (truncated, ${text.length - cut} more characters)`;
}

/** Collapses a possibly multi-line text to one bounded line, for attributes and headers. */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = max;
  const last = flat.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut)}… (truncated)`;
}

/**
 * Milliseconds as JUnit seconds. Always matches the XSD SUREFIRE_TIME pattern: no sign,
 * no exponent, no thousands separator (negative or non-finite durations become 0).
 */
export function seconds(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0.000';
  // toFixed switches to exponent notation from 1e21 on; no real run gets near the clamp.
  return (Math.min(ms, 1e20) / 1000).toFixed(3);
}

/** "1 case" / "2 cases". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The prefix every report gives a requirement outside the run's selection (`--part`, `--requirement`). */
export const NOT_SELECTED = 'not selected';

/** The prefix every report gives what does not apply to a run (a case or a requirement). */
export const NOT_APPLICABLE = 'not applicable';

/**
 * Why a skipped case did not run, as reports show it: `not applicable: <reason>` for a case
 * that found its requirements do not apply to the target, the plain reason otherwise.
 */
export function skipText(c: { reason?: string; notApplicable?: boolean }): string {
  if (c.notApplicable) return `${NOT_APPLICABLE}: ${c.reason ?? 'it does not apply to this target'}`;
  return c.reason ?? 'skipped';
}
