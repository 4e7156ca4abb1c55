/**
 * The endpoint and parameter tables of spec 002 (parts G and H, "Endpoints") as the document
 * writes them, so the events API table can be compared with the spec row by row.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';

/** The spec document, in the shared folder beside this repository. */
export const SPEC_DOCUMENT = fromRoot('..', 'shared', 'specs', '002_6af093588121405e.txt');

export function specDocumentPresent(): boolean {
  return existsSync(SPEC_DOCUMENT);
}

export function readSpec(): string {
  return readFileSync(SPEC_DOCUMENT, 'utf8');
}

/** One endpoint row: where it is served (`mon` below {base_url}, `ip` below {ip_ranges_url}, `platform` below {api_url}). */
export interface EndpointRow {
  line: number;
  host: 'mon' | 'ip' | 'platform';
  method: string;
  path: string;
  /** H rows: path parameters the row names, with `integer` when it says so. */
  pathParams: { name: string; integer: boolean }[];
  /** H rows: the per_page default (undefined for "-"). */
  perPageDefault?: number;
  /** H rows: the response codes. */
  codes: number[];
}

/** A query parameter of a G parameter table or sentence. */
export interface QueryParam {
  name: string;
  type: string;
  required: boolean;
}

/** The lines of a `### <heading>` section below `## <part>`, up to the next heading of either level. */
export function sectionLines(text: string, part: string, heading: RegExp): { lines: string[]; first: number } {
  const all = text.split(/\r?\n/);
  const top = all.findIndex((l) => l.trim() === `## ${part}`);
  const start = top < 0 ? -1 : all.findIndex((l, i) => i > top && /^###\s/.test(l) && heading.test(l.slice(4)));
  if (start < 0) throw new SpecgateError('SG_INTERNAL', `the spec has no "### ${String(heading)}" under "## ${part}"`);
  let end = all.findIndex((l, i) => i > start && /^##/.test(l));
  if (end < 0) end = all.length;
  return { lines: all.slice(start + 1, end), first: start + 2 };
}

/** Cells of a Markdown table row, trimmed, without code backticks around a whole cell. */
export function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim().replace(/^`(.*)`$/, '$1'));
}

/**
 * The Markdown tables of a block of lines whose header row starts with `firstColumn`:
 * each as its rows of cells keyed by the header's column names, with the row's line number.
 */
export function tables(lines: string[], first: number, firstColumn: string): { header: string[]; rows: { line: number; cells: Record<string, string> }[] }[] {
  const out: { header: string[]; rows: { line: number; cells: Record<string, string> }[] }[] = [];
  let current: (typeof out)[number] | undefined;
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) {
      current = undefined;
      return;
    }
    const row = cells(line);
    if (row.every((c) => /^:?-+:?$/.test(c))) return;
    if (!current) {
      if (row[0] !== firstColumn) return;
      current = { header: row, rows: [] };
      out.push(current);
      return;
    }
    const header = current.header;
    current.rows.push({ line: first + i, cells: Object.fromEntries(header.map((h, k) => [h, row[k] ?? ''])) });
  });
  return out;
}

/** Every row of the G and H endpoint tables. */
export function endpointRows(text: string): EndpointRow[] {
  const g = sectionLines(text, 'Endpoints', /^G\.\s/);
  const gTable = tables(g.lines, g.first, 'Method')[0];
  if (!gTable) throw new SpecgateError('SG_INTERNAL', 'no Method | Path table in "### G." of Endpoints');
  const rows: EndpointRow[] = gTable.rows.map(({ line, cells: c }) => {
    const raw = c['Path'] ?? '';
    const ip = raw.startsWith('{ip_ranges_url}');
    return { line, host: ip ? 'ip' : 'mon', method: c['Method'] ?? '', path: ip ? raw.slice('{ip_ranges_url}'.length) : raw, pathParams: [], codes: [] };
  });
  const h = sectionLines(text, 'Endpoints', /^H\.\s/);
  // the H table has no method column: the section says which method every endpoint is
  const method = /All endpoints are (\w+) on \{api_url\}/.exec(h.lines.join('\n'))?.[1];
  if (!method) throw new SpecgateError('SG_INTERNAL', 'the H endpoints section does not say "All endpoints are <METHOD> on {api_url}"');
  const hTable = tables(h.lines, h.first, 'Path')[0];
  if (!hTable) throw new SpecgateError('SG_INTERNAL', 'no Path | Path parameters table in "### H." of Endpoints');
  for (const { line, cells: c } of hTable.rows) {
    const path = (c['Path'] ?? '').replace(/\s*\(.*\)\s*$/, '');
    const params = c['Path parameters'] ?? '';
    // "owner, repo (string, required, ...)", "username, org", "owner, repo, event_id (integer, required)"
    const names = params === '-' ? [] : params.replace(/\([^)]*\)/g, '').split(',').map((s) => s.trim()).filter(Boolean);
    const integers = [...params.matchAll(/(\w+) \(integer/g)].map((m) => m[1]);
    const perPage = c['per_page default'] ?? '-';
    rows.push({
      line,
      host: 'platform',
      method,
      path,
      pathParams: names.map((name) => ({ name, integer: integers.includes(name) })),
      ...(perPage === '-' ? {} : { perPageDefault: Number(perPage) }),
      codes: (c['Response codes'] ?? '').split(',').map((s) => Number(s.trim())),
    });
  }
  return rows;
}

/** The query parameter table that follows the line `<title> query parameters:` in G's endpoints. */
export function queryTable(text: string, title: string): QueryParam[] {
  const g = sectionLines(text, 'Endpoints', /^G\.\s/);
  const at = g.lines.findIndex((l) => l.trim() === `${title} query parameters:`);
  if (at < 0) throw new SpecgateError('SG_INTERNAL', `no "${title} query parameters:" in G's endpoints`);
  const table = tables(g.lines.slice(at + 1), g.first + at + 1, 'Name')[0];
  if (!table) throw new SpecgateError('SG_INTERNAL', `no Name | Type table after "${title} query parameters:"`);
  return table.rows.map(({ cells: c }) => ({ name: c['Name'] ?? '', type: c['Type'] ?? '', required: c['Required'] === 'yes' }));
}

/** The dependency endpoints' query parameters, which the spec gives as a sentence (`env` string (required; ...), ...). */
export function dependencyParams(text: string): QueryParam[] {
  const sentence = /^Service dependencies, query parameters \(both endpoints\): (.*)$/m.exec(text)?.[1];
  if (!sentence) throw new SpecgateError('SG_INTERNAL', 'no "Service dependencies, query parameters" sentence in the spec');
  // the part before "Path parameter of the single endpoint"
  const own = sentence.split('. Path parameter')[0] ?? '';
  return [...own.matchAll(/`([\w\[\]]+)` (string|integer)( \(required)?/g)].map((m) => ({ name: m[1] ?? '', type: m[2] ?? '', required: Boolean(m[3]) }));
}

/** The `##` headings of the document, each with its `###` headings. */
export function headings(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let top: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    const h2 = /^## (.*\S)\s*$/.exec(line);
    if (h2?.[1]) out.set(h2[1], (top = []));
    const h3 = /^### (.*\S)\s*$/.exec(line);
    if (h3?.[1] && top) top.push(h3[1]);
  }
  return out;
}
