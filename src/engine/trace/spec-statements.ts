/**
 * A specification document (markdown-like text: `#` headings, paragraphs, `-` or `1.` list
 * items, `|` tables) cut into its statements: each sentence of a paragraph or list item, and
 * each data row of a table. A suite's trace (trace.yaml) maps every statement of the parts it
 * judges to the requirements that judge it, or says why none can; this is how the statements
 * are found, so that a statement the trace misses, or a quote the document no longer has, shows.
 */

/** One statement of a document. */
export interface SpecStatement {
  /** The headings above it, outermost first (the document title for text before the first `##`), joined by " > ". */
  section: string;
  /** The interfaces (letters) its nearest lettered heading names (`### G. …`, `#### E1. …`, `### E and F`); empty when none does. */
  interfaces: string[];
  kind: 'sentence' | 'row';
  /** Its text with runs of white space made one space; a row's cells joined by " | ". */
  text: string;
  /** 1-based line where it starts. */
  line: number;
}

/** The separator of a statement's section path. */
export const SECTION_SEPARATOR = ' > ';

/** Words that end with a period without ending a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'approx', 'no', 'eg', 'ie']);

/** White space runs made one space, ends trimmed: how statements and quotes are compared. */
export function normalizeText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The interface letters a heading names, if it starts with one ("G. Monitoring API", "E1. Register", "E and F", "G"). */
export function headingInterfaces(heading: string): string[] {
  const pair = /^([A-Z]) and ([A-Z])$/.exec(heading);
  if (pair) return [pair[1] as string, pair[2] as string];
  const one = /^([A-Z])\d*(?:\.(?:\s|$)|$)/.exec(heading);
  return one ? [one[1] as string] : [];
}

/** The interface letters of a section path: those of its innermost lettered heading. */
export function sectionInterfaces(section: string): string[] {
  const parts = section.split(SECTION_SEPARATOR);
  for (let i = parts.length - 1; i >= 0; i--) {
    const found = headingInterfaces(parts[i] as string);
    if (found.length) return found;
  }
  return [];
}

/**
 * A paragraph or list item cut into sentences: after `.`, `!` or `?` followed by white space
 * and a capital letter, a backtick, a quote or an opening bracket, outside backticks and
 * brackets, and not after an abbreviation such as "e.g.".
 */
export function sentences(text: string): string[] {
  const t = normalizeText(text);
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  let code = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '`') code = !code;
    else if (code) continue;
    else if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && t[i + 1] === ' ' && /[A-Z`"'([]/.test(t[i + 2] ?? '')) {
      const word = /([A-Za-z.]+)$/.exec(t.slice(start, i))?.[1]?.toLowerCase() ?? '';
      if (c === '.' && ABBREVIATIONS.has(word)) continue;
      out.push(t.slice(start, i + 1));
      start = i + 2;
    }
  }
  const rest = t.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** A table row's cells, trimmed, joined by " | " (a separator row gives none). */
function rowText(line: string): string | undefined {
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => normalizeText(c));
  if (cells.every((c) => /^:?-+:?$/.test(c))) return undefined;
  return cells.join(' | ');
}

/** The section of text before a document's first heading, when the document has no title. */
export const PREAMBLE = '(preamble)';

/**
 * Every statement of a document, in order. A document whose one `#` heading comes before every
 * other heading has that heading as its title: sections are then the `##` headings and below,
 * and text before the first `##` is under the title. In any other document every heading,
 * `#` too, is a section, and text before the first heading is under "(preamble)".
 */
export function specStatements(text: string): SpecStatement[] {
  const lines = text.split(/\r?\n/);
  const levels = lines.flatMap((l) => { const m = /^(#{1,6})\s+\S/.exec(l); return m ? [(m[1] as string).length] : []; });
  const titled = levels[0] === 1 && levels.filter((n) => n === 1).length === 1;
  const top = titled ? 2 : 1;
  const out: SpecStatement[] = [];
  const headings: string[] = [];
  let title = PREAMBLE;
  let block: { text: string; line: number } | undefined;
  let tableRow = 0;
  const section = (): string => (headings.length ? headings.join(SECTION_SEPARATOR) : title);
  const flush = (): void => {
    if (!block) return;
    const s = section();
    const interfaces = sectionInterfaces(s);
    for (const sentence of sentences(block.text)) out.push({ section: s, interfaces, kind: 'sentence', text: sentence, line: block.line });
    block = undefined;
  };
  lines.forEach((line, i) => {
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      tableRow = 0;
      const level = (heading[1] as string).length;
      const name = heading[2] as string;
      if (titled && level === 1) title = name;
      else {
        headings.length = Math.min(headings.length, level - top);
        while (headings.length < level - top) headings.push('');
        headings.push(name);
      }
      return;
    }
    if (/^\s*\|/.test(line)) {
      flush();
      tableRow++;
      // the first row of a table is its header
      if (tableRow === 1) return;
      const row = rowText(line);
      if (row !== undefined) out.push({ section: section(), interfaces: sectionInterfaces(section()), kind: 'row', text: row, line: i + 1 });
      return;
    }
    tableRow = 0;
    if (!line.trim()) return flush();
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      flush();
      block = { text: item[1] as string, line: i + 1 };
    } else if (block) block.text += ` ${line}`;
    else block = { text: line, line: i + 1 };
  });
  flush();
  return out;
}
