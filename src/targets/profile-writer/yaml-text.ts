/**
 * Small pieces of YAML text for the profiles specgate writes with comments in them (a YAML
 * library drops comments, and the comments are the point): values in flow style, which read
 * as one line each and parse back to the same value.
 */

/** Words a YAML 1.1 reader takes for booleans or null when unquoted. */
const KEYWORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/** A mapping key, quoted only when it must be. */
export function yamlKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) && !KEYWORDS.test(key) ? key : JSON.stringify(key);
}

/** Any JSON-shaped value as YAML flow text on one line. */
export function yamlFlow(value: unknown): string {
  if (typeof value === 'string') return /^[A-Za-z][A-Za-z0-9_-]*$/.test(value) && !KEYWORDS.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(yamlFlow).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length ? `{ ${entries.map(([k, v]) => `${yamlKey(k)}: ${yamlFlow(v)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(String(value));
}

/** Text as comment lines at an indent, wrapped near `width` columns. */
export function commentLines(text: string, indent: string, width = 100): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && indent.length + 2 + line.length + 1 + word.length > width) {
        out.push(`${indent}# ${line}`);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line ? `${indent}# ${line}` : `${indent}#`);
  }
  return out;
}
