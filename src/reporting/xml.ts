/**
 * Minimal XML writing for the JUnit reporter: escaping only, no DOM. Every string that
 * reaches the output goes through {@link escapeText} or {@link escapeAttr}, which also strip
 * characters XML 1.0 forbids, so target output can never make the report unparsable.
 */
import { cleanText } from './text.js';

/** Escapes character data. `>` is escaped too so that `]]>` can never appear in text. */
export function escapeText(text: string): string {
  return cleanText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    // A literal CR would be normalized to LF by any XML parser; keep it as written.
    .replace(/\r/g, '&#13;');
}

/**
 * Escapes an attribute value for double quotes. Whitespace characters are written as
 * character references because attribute-value normalization would turn them into spaces.
 */
export function escapeAttr(text: string): string {
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}

/** Attribute list; undefined values are left out (optional attributes). */
export function attrs(list: [string, string | number | undefined][]): string {
  return list
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, v]) => ` ${name}="${escapeAttr(String(v))}"`)
    .join('');
}

/** `<tag attrs/>` or `<tag attrs>text</tag>`. */
export function element(tag: string, attributes: [string, string | number | undefined][], text?: string): string {
  const a = attrs(attributes);
  return text === undefined || text === '' ? `<${tag}${a}/>` : `<${tag}${a}>${escapeText(text)}</${tag}>`;
}
