import { readFileSync } from 'node:fs';
import type { Document, LineCounter } from 'yaml';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { yamlPackage as yaml } from '../../yaml-package.js';
import type { SourceLocation } from '../model.js';
import { aliasMessage, aliasProblem } from './yaml-aliases.js';

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
  const sliced = text.length > SLICED_FROM ? parseSliced(file, text, code) : undefined;
  if (sliced) return sliced;
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { lineCounter, ...PARSE_OPTIONS });
  if (doc.errors.length) {
    throw new SpecgateErrorList(
      doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return new SpecgateError(code, `${file}:${pos.line}:${pos.col}: ${label}${firstLine(e.message)}`, { file, line: pos.line, column: pos.col });
      }),
    );
  }
  refuseAliasBombs(text, doc, lineCounter, file, code, 0);
  let data: unknown;
  try {
    data = doc.toJS(TO_JS_OPTIONS);
  } catch (e) {
    // what the parser accepted but cannot turn into data: values nested deeper than the stack goes
    const why = e instanceof RangeError ? 'values are nested too deeply to read' : `it cannot be read as data (${e instanceof Error ? e.message : String(e)})`;
    throw new SpecgateError(code, `${file}:1:1: ${label}${why}`, { file, line: 1, column: 1 });
  }
  return { file, data, locate: (path) => locate(doc, lineCounter, file, path), locateKey: (path) => locateKey(doc, lineCounter, file, path) };
}

/**
 * A file whose aliases stand for far more values than it holds (yaml-aliases.ts) stops here,
 * named at the alias where it goes too far; `lines` are the lines before this text in the file.
 * Text without both an anchor mark and an alias mark has no alias to measure (most files).
 */
function refuseAliasBombs(text: string, doc: Document, lc: LineCounter, file: string, code: 'SG_SUITE_SYNTAX' | 'SG_CONFIG', lines: number): void {
  if (!text.includes('&') || !text.includes('*')) return;
  const problem = aliasProblem(doc);
  if (!problem) return;
  const pos = lc.linePos(problem.offset);
  const line = pos.line + lines;
  throw new SpecgateError(code, `${file}:${line}:${pos.col}: ${aliasMessage(problem)}`, { file, line, column: pos.col });
}

// Integers are read as bigint and only safe ones turned back into numbers: a literal such as
// 9007199254740993 (an int64 id in an expectation) must not silently round to ...992.
const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: true, intAsBigInt: true } as const;
// The library's alias count is off: refuseAliasBombs measures what aliases expand to instead
// (the count misses wide bombs and refuses a harmless file with a thousand aliases of one word).
const TO_JS_OPTIONS = { maxAliasCount: -1, reviver: (_key: unknown, v: unknown): unknown => (typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v) };

/** Past this many characters, a file whose root is a block sequence is parsed in slices. */
const SLICED_FROM = 1024 * 1024;
/** About how much text one slice holds; it ends where a root item starts. */
const SLICE_CHARS = 256 * 1024;

/** One slice of a sliced file: where its text is, the lines before it, its first root item. */
interface Slice {
  start: number;
  end: number;
  lines: number;
  first: number;
}

/**
 * A large file whose root is a block sequence (a cases file of thousands of cases), parsed a
 * slice of root items at a time. The parser's tree costs about fifty times the text, so holding
 * the whole file's at once made a 20 MB suite file need more than a gigabyte; slices keep one
 * slice's tree at a time. Positions of root items are kept; a deeper one (for an error message)
 * parses its slice again. Undefined, and the file is parsed whole, when it does not split
 * cleanly: document markers or directives, a root that is not a sequence, or a slice that does
 * not load on its own (an alias of an anchor in another slice, quoted text across a split): the
 * whole-file parse then gives the same data, or reports the real error with its position.
 */
function parseSliced(file: string, text: string, code: 'SG_SUITE_SYNTAX' | 'SG_CONFIG'): YamlSource | undefined {
  if (/^(?:---|\.\.\.|%)/m.test(text)) return undefined;
  const starts = [0];
  // a slice starts at a `-` that begins a line (after "\n" only: YAML reads U+2028 as text)
  for (let at = text.indexOf('\n-', SLICE_CHARS); at !== -1; at = text.indexOf('\n-', at + SLICE_CHARS)) {
    const after = text.charAt(at + 2);
    if (after === ' ' || after === '\t' || after === '\n' || after === '\r' || after === '') starts.push(at + 1);
  }
  if (starts.length < 2) return undefined;
  const slices: Slice[] = [];
  const data: unknown[] = [];
  const items: [number, number][] = [];
  let lines = 0;
  let root: SourceLocation = { file, line: 1, column: 1 };
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] ?? 0;
    const end = starts[i + 1] ?? text.length;
    const part = text.slice(start, end);
    const lc = new (yaml().LineCounter)();
    const doc = yaml().parseDocument(part, { lineCounter: lc, ...PARSE_OPTIONS });
    if (doc.errors.length || !yaml().isSeq(doc.contents)) return undefined;
    refuseAliasBombs(part, doc, lc, file, code, lines);
    let values: unknown;
    try {
      values = doc.toJS(TO_JS_OPTIONS);
    } catch {
      return undefined;
    }
    if (!Array.isArray(values) || values.length !== doc.contents.items.length) return undefined;
    if (i === 0 && doc.contents.range) {
      const pos = lc.linePos(doc.contents.range[0]);
      root = { file, line: pos.line, column: pos.col };
    }
    slices.push({ start, end, lines, first: data.length });
    for (const item of doc.contents.items) {
      const pos = yaml().isNode(item) && item.range ? lc.linePos(item.range[0]) : { line: 1, col: 1 };
      items.push([lines + pos.line, pos.col]);
    }
    for (const v of values) data.push(v);
    for (let nl = part.indexOf('\n'); nl !== -1; nl = part.indexOf('\n', nl + 1)) lines++;
  }
  // the slice last parsed again for a deeper position, kept for the next question
  let last: { slice: Slice; doc: Document; lc: LineCounter } | undefined;
  const within = (path: readonly (string | number)[]): { doc: Document; lc: LineCounter; slice: Slice; rest: (string | number)[] } | undefined => {
    const index = Number(path[0]);
    if (!Number.isInteger(index) || index < 0 || index >= data.length) return undefined;
    let lo = 0;
    let hi = slices.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((slices[mid]?.first ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    const slice = slices[lo];
    if (!slice) return undefined;
    if (last?.slice !== slice) {
      const lc = new (yaml().LineCounter)();
      last = { slice, doc: yaml().parseDocument(text.slice(slice.start, slice.end), { lineCounter: lc, ...PARSE_OPTIONS }), lc };
    }
    return { doc: last.doc, lc: last.lc, slice, rest: [index - slice.first, ...path.slice(1)] };
  };
  const shift = (at: SourceLocation, slice: Slice): SourceLocation => ({ file, line: at.line + slice.lines, column: at.column });
  const locateIn = (path: readonly (string | number)[]): SourceLocation => {
    const top = items[Number(path[0])];
    if (path.length === 1 && top) return { file, line: top[0], column: top[1] };
    const w = path.length > 0 ? within(path) : undefined;
    return w ? shift(locate(w.doc, w.lc, file, w.rest), w.slice) : root;
  };
  return {
    file,
    data,
    locate: locateIn,
    locateKey: (path) => {
      const w = path.length > 1 ? within(path) : undefined;
      return w ? shift(locateKey(w.doc, w.lc, file, w.rest), w.slice) : locateIn(path);
    },
  };
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

function locate(doc: Document, lc: LineCounter, file: string, path: readonly (string | number)[]): SourceLocation {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n).map(toKey), true);
    if (yaml().isNode(node) && node.range) {
      const pos = lc.linePos(node.range[0]);
      return { file, line: pos.line, column: pos.col };
    }
  }
  return { file, line: 1, column: 1 };
}

function locateKey(doc: Document, lc: LineCounter, file: string, path: readonly (string | number)[]): SourceLocation {
  const last = path[path.length - 1];
  const parent: unknown = path.length > 1 ? doc.getIn(path.slice(0, -1).map(toKey), true) : doc.contents;
  if (last !== undefined && yaml().isMap(parent)) {
    const pair = parent.items.find((p) => yaml().isScalar(p.key) && String(p.key.value) === String(last));
    if (pair && yaml().isNode(pair.key) && pair.key.range) {
      const pos = lc.linePos(pair.key.range[0]);
      return { file, line: pos.line, column: pos.col };
    }
  }
  return locate(doc, lc, file, path);
}

function toKey(k: string | number): string | number {
  return typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : k;
}
