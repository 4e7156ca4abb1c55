import { readFileSync } from 'node:fs';
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import type { SourceLocation } from '../model.js';

/** A parsed YAML file that still knows where each value came from. */
export interface YamlSource {
  file: string;
  data: unknown;
  /** Location of the value at a JSON-pointer-like path (`['3', 'steps', '0']`); nearest existing parent otherwise. */
  locate(path: readonly (string | number)[]): SourceLocation;
  /** Location of the key of the last path element (an unknown key is named where it is written); falls back to locate. */
  locateKey?(path: readonly (string | number)[]): SourceLocation;
}

/** How syntax errors are reported: their code, and the words before the parser's message. */
export interface YamlErrorStyle {
  code?: 'SG_SUITE_SYNTAX' | 'SG_CONFIG';
  /** Printed between `file:line:column: ` and the parser's message (default `YAML syntax: `). */
  label?: string;
}

/** `file:line:column`, the form every positioned message starts with. */
export function formatLocation(loc: SourceLocation): string {
  return `${loc.file}:${loc.line}:${loc.column}`;
}

/** Reads and parses a YAML file; syntax errors become SG_SUITE_SYNTAX errors with file:line:column. */
export function readYaml(file: string, code: 'SG_SUITE_SYNTAX' | 'SG_CONFIG' = 'SG_SUITE_SYNTAX'): YamlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SpecgateError(code, `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)}); check the path`);
  }
  return parseYaml(file, text, code);
}

/**
 * Parses YAML text into data that still knows where each value came from (suite files,
 * profiles and baselines all go through here). Every syntax error is reported at once.
 */
export function parseYaml(file: string, text: string, style: YamlErrorStyle['code'] | YamlErrorStyle = 'SG_SUITE_SYNTAX'): YamlSource {
  const given: YamlErrorStyle = typeof style === 'string' ? { code: style } : style;
  const code = given.code ?? 'SG_SUITE_SYNTAX';
  const label = given.label ?? 'YAML syntax: ';
  const lineCounter = new LineCounter();
  // Integers are read as bigint and only safe ones turned back into numbers: a literal such as
  // 9007199254740993 (an int64 id in an expectation) must not silently round to ...992.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, intAsBigInt: true });
  if (doc.errors.length) {
    throw new SpecgateErrorList(
      doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return new SpecgateError(code, `${file}:${pos.line}:${pos.col}: ${label}${firstLine(e.message)}`, { file, line: pos.line, column: pos.col });
      }),
    );
  }
  const data: unknown = doc.toJS({ maxAliasCount: 1000, reviver: (_key, v: unknown) => (typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v) });
  return { file, data, locate: (path) => locate(doc, lineCounter, file, path), locateKey: (path) => locateKey(doc, lineCounter, file, path) };
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

function locate(doc: Document, lc: LineCounter, file: string, path: readonly (string | number)[]): SourceLocation {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n).map(toKey), true);
    if (isNode(node) && node.range) {
      const pos = lc.linePos(node.range[0]);
      return { file, line: pos.line, column: pos.col };
    }
  }
  return { file, line: 1, column: 1 };
}

function locateKey(doc: Document, lc: LineCounter, file: string, path: readonly (string | number)[]): SourceLocation {
  const last = path[path.length - 1];
  const parent: unknown = path.length > 1 ? doc.getIn(path.slice(0, -1).map(toKey), true) : doc.contents;
  if (last !== undefined && isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
    if (pair && isNode(pair.key) && pair.key.range) {
      const pos = lc.linePos(pair.key.range[0]);
      return { file, line: pos.line, column: pos.col };
    }
  }
  return locate(doc, lc, file, path);
}

function toKey(k: string | number): string | number {
  return typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : k;
}
