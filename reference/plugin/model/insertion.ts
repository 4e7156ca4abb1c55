/** The default marker prefix: spec A writes `@@<compiler>_insertion_point(NAME)`, and `<compiler>` is `protoc`. */
export const DEFAULT_MARKER_PREFIX = '@@protoc_insertion_point';

export type InsertResult = { ok: true; content: string } | { ok: false; message: string };

/**
 * Inserts `text` at insertion point `point` of `content` (spec A, Rules for File, rules 4 and 5).
 *
 * - The point is the first line containing `<prefix>(<point>)`; text may precede and follow the
 *   marker on that line.
 * - The text goes immediately above that line, so successive insertions at one point appear in
 *   the order they were added.
 * - The marker line's leading whitespace is added to every line of the text, empty lines
 *   included. Where the rule is silent the model follows protoc 3.21 (checked by the
 *   differential test): "whitespace" is a run of spaces and tabs, a text that does not end in a
 *   newline gets one, and an empty text inserts nothing.
 */
export function insertAtPoint(content: string, point: string, text: string, prefix: string = DEFAULT_MARKER_PREFIX): InsertResult {
  const site = markerLine(content, point, prefix);
  if ('message' in site) return { ok: false, message: site.message };
  if (text === '') return { ok: true, content };
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const lines = body.slice(0, -1).split('\n');
  const indented = lines.map((l) => `${site.indent}${l}\n`).join('');
  return { ok: true, content: content.slice(0, site.lineStart) + indented + content.slice(site.lineStart) };
}

/**
 * The line that marks insertion point `point` (the first line containing `<prefix>(<point>)`):
 * where it starts and its leading spaces and tabs, or why there is none.
 */
export function markerLine(content: string, point: string, prefix: string = DEFAULT_MARKER_PREFIX): { lineStart: number; indent: string } | { message: string } {
  const marker = `${prefix}(${point})`;
  const at = content.indexOf(marker);
  if (at < 0) return { message: `insertion point ${JSON.stringify(point)} not found (no line contains ${marker})` };
  const lineStart = at === 0 ? 0 : content.lastIndexOf('\n', at - 1) + 1;
  let indentEnd = lineStart;
  while (indentEnd < at && (content[indentEnd] === ' ' || content[indentEnd] === '\t')) indentEnd++;
  return { lineStart, indent: content.slice(lineStart, indentEnd) };
}
