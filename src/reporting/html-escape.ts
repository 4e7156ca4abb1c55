/**
 * Escaping for the HTML report. Everything a target sent, every suite text and every value is
 * written as HTML text or a quoted attribute, never into a script or style element, so a body
 * holding `</script>` or `<img onerror>` stays text on the page.
 */
import { showValue } from './json-text.js';
import { truncate } from './text.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML content and double- or single-quoted attributes. Characters HTML
 * forbids in text (C0 controls other than whitespace, lone surrogates) become U+FFFD, visibly.
 */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string).replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Cap for one value shown on the page, so one huge body cannot make the page unusable. */
const VALUE_CAP = 16 * 1024;

/** A value as escaped, pretty JSON (strings as they are), capped. */
export function escValue(v: unknown): string {
  return esc(truncate(typeof v === 'string' ? v : showValue(v, 80), VALUE_CAP));
}

/** A status or outcome as a CSS class suffix (statuses are known words; anything else is neutralised). */
export function cls(word: string): string {
  return word.replace(/[^a-z-]/g, '');
}
