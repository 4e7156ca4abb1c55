/**
 * The endpoint tables of the merchant catalog API as the spec document writes them (spec 001,
 * "Endpoints", "D. Merchant catalog API"): every row of every "#### ..." table up to "### E.",
 * with the operation ID the route table gives it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';

/** The spec document, in the shared folder beside this repository. */
export const SPEC_DOCUMENT = fromRoot('..', 'shared', 'specs', '001_5e21481c28ca383d.txt');

export function specDocumentPresent(): boolean {
  return existsSync(SPEC_DOCUMENT);
}

/** One row of a part D endpoint table. */
export interface SpecRow {
  /** Position among all part D rows, from 1. */
  index: number;
  /** Line of the row in the document, from 1. */
  line: number;
  /** The table's "####" title, e.g. "accounts" or "liasettings". */
  section: string;
  /** The Operation cell as written, e.g. "labels create" or "authinfo". */
  operation: string;
  id: string;
  method: string;
  path: string;
}

/**
 * Two-word rows name a group by its last word; these are the groups whose name is longer
 * (spec "D. Merchant resource groups" lists accounts.credentials, freelistingsprogram.checkoutsettings, ...).
 */
const NESTED_GROUPS: Readonly<Record<string, string>> = {
  credentials: 'accounts.credentials',
  labels: 'accounts.labels',
  returncarrier: 'accounts.returncarrier',
  checkoutsettings: 'freelistingsprogram.checkoutsettings',
};

/** Reads and parses the document's part D endpoint tables. */
export function readSpecRows(file: string = SPEC_DOCUMENT): SpecRow[] {
  return parseSpecRows(readFileSync(file, 'utf8'));
}

/** The operation ID of a row: one word takes the section as its group, two words name the group. */
export function operationId(section: string, operation: string): string {
  const words = operation.split(/\s+/).filter(Boolean);
  if (words.length === 1 && /^[a-z]+$/.test(section)) return `${section}.${words[0] ?? ''}`;
  if (words.length === 2) {
    const [group = '', name = ''] = words;
    return `${NESTED_GROUPS[group] ?? group}.${name}`;
  }
  throw new SpecgateError('SG_INTERNAL', `cannot derive an operation ID from "${operation}" in section "${section}": a one-word operation needs a one-group section, others must be "<group> <name>"`);
}

export function parseSpecRows(text: string): SpecRow[] {
  const lines = text.split(/\r?\n/);
  const endpoints = lines.findIndex((l) => /^##\s+Endpoints\s*$/.test(l));
  const start = endpoints < 0 ? -1 : lines.findIndex((l, i) => i > endpoints && /^###\s+D\.\s+Merchant catalog API\s*$/.test(l));
  if (start < 0) throw new SpecgateError('SG_INTERNAL', 'the spec document has no "### D. Merchant catalog API" under "## Endpoints"');
  const rows: SpecRow[] = [];
  let section: string | undefined;
  let columns: { operation: number; method: number; path: number } | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^###\s+E\./.test(line) || /^##\s/.test(line)) break;
    const heading = /^####\s+(.*\S)\s*$/.exec(line);
    if (heading) {
      section = heading[1];
      columns = undefined;
      continue;
    }
    if (!line.startsWith('|')) continue;
    const cells = tableCells(line);
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue; // the header's separator row
    if (!columns) {
      columns = { operation: cells.indexOf('Operation'), method: cells.indexOf('Method'), path: cells.indexOf('Path') };
      if (columns.operation < 0 || columns.method < 0 || columns.path < 0) throw new SpecgateError('SG_INTERNAL', `spec line ${i + 1}: a table header without Operation, Method and Path columns`);
      continue;
    }
    if (!section) throw new SpecgateError('SG_INTERNAL', `spec line ${i + 1}: a table row before any "####" section`);
    const operation = cells[columns.operation] ?? '';
    rows.push({
      index: rows.length + 1,
      line: i + 1,
      section,
      operation,
      id: operationId(section, operation),
      method: cells[columns.method] ?? '',
      path: cells[columns.path] ?? '',
    });
  }
  return rows;
}

/** The groups the spec lists under "D. Merchant resource groups". */
export function specGroups(text: string): string[] {
  const m = /^Groups \(each is a path family\):\s*(.*)$/m.exec(text);
  if (!m) throw new SpecgateError('SG_INTERNAL', 'the spec document has no "Groups (each is a path family):" line');
  return (m[1] ?? '').replace(/\.\s*$/, '').split(',').map((g) => g.trim()).filter(Boolean);
}

/** Cells of a Markdown table row, trimmed, without code backticks around a whole cell. */
function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((c) => c.trim().replace(/^`(.*)`$/, '$1'));
}
