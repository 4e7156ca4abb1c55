import { decodeCodeInfoText, type Annotation } from './code-info-text.js';

/**
 * Code-generation metadata of generated files (spec A, CodeGeneratorResponse.File:
 * `generated_code_info` is the "description of the inserted content; when an insertion point is
 * used it is offset and merged into the code-generation metadata of the generated files").
 *
 * The spec does not show where a compiler keeps that metadata. protoc 3.21 keeps it beside the
 * file, as `<file>.pb.meta` holding a `google.protobuf.GeneratedCodeInfo` (its wire format, or
 * its text format when a generator wrote it so), and that is the default here; the suffix is a
 * target setting (the suite's var metadata_file_suffix). Pure functions, no I/O.
 */

/** Where protoc keeps a generated file's metadata by default. */
export const DEFAULT_METADATA_SUFFIX = '.pb.meta';

const SEMANTICS: Readonly<Record<string, number>> = { NONE: 0, SET: 1, ALIAS: 2 };

function int(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

/**
 * The annotations of a `generated_code_info` as a response carries it: decoded by the codec
 * (`sourceFile`, numeric `semantic`) or written in a suite file (`source_file`, `semantic: SET`).
 */
export function annotationsOf(info: unknown): Annotation[] {
  if (!info || typeof info !== 'object') return [];
  const list = (info as { annotation?: unknown }).annotation;
  if (!Array.isArray(list)) return [];
  return list.map((raw: unknown): Annotation => {
    const a = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const out: Annotation = { path: Array.isArray(a['path']) ? a['path'].map((p) => int(p) ?? 0) : [] };
    const source = a['sourceFile'] ?? a['source_file'];
    if (typeof source === 'string') out.sourceFile = source;
    const begin = int(a['begin']);
    const end = int(a['end']);
    if (begin !== undefined) out.begin = begin;
    if (end !== undefined) out.end = end;
    const semantic = typeof a['semantic'] === 'string' ? SEMANTICS[a['semantic']] : int(a['semantic']);
    if (semantic !== undefined) out.semantic = semantic;
    return out;
  });
}

// ---------------------------------------------------------------- wire format

function readVarint(buf: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i] as number;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, i + 1];
    scale *= 128;
  }
  throw new RangeError(`bad varint at byte ${at}`);
}

/** Negative int32 values travel as ten-byte varints; read them back as negative numbers. */
function int32(v: number): number {
  return v >= 2 ** 31 ? v - 2 ** 64 : v;
}

interface RawField {
  field: number;
  wire: number;
  value: number;
  bytes?: Uint8Array;
}

function fields(buf: Uint8Array): RawField[] {
  const out: RawField[] = [];
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = readVarint(buf, at);
    at = next;
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (field === 0) throw new RangeError('field number 0');
    if (wire === 0) {
      const [value, after] = readVarint(buf, at);
      out.push({ field, wire, value });
      at = after;
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      if (after + len > buf.length) throw new RangeError('field runs past the end');
      out.push({ field, wire, value: len, bytes: buf.subarray(after, after + len) });
      at = after + len;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      if (at > buf.length) throw new RangeError('field runs past the end');
    } else {
      throw new RangeError(`wire type ${wire}`);
    }
  }
  return out;
}

/** The annotations of an encoded GeneratedCodeInfo. Throws RangeError on malformed input. */
export function decodeCodeInfo(buf: Uint8Array): Annotation[] {
  return fields(buf)
    .filter((f) => f.field === 1 && f.wire === 2)
    .map((f) => {
      const a: Annotation = { path: [] };
      for (const g of fields(f.bytes ?? new Uint8Array(0))) {
        if (g.field === 1 && g.wire === 2) {
          const packed = g.bytes ?? new Uint8Array(0);
          for (let at = 0; at < packed.length; ) {
            const [v, next] = readVarint(packed, at);
            a.path.push(int32(v));
            at = next;
          }
        } else if (g.field === 1 && g.wire === 0) a.path.push(int32(g.value));
        else if (g.field === 2 && g.wire === 2) a.sourceFile = new TextDecoder().decode(g.bytes);
        else if (g.field === 3 && g.wire === 0) a.begin = int32(g.value);
        else if (g.field === 4 && g.wire === 0) a.end = int32(g.value);
        else if (g.field === 5 && g.wire === 0) a.semantic = g.value;
      }
      return a;
    });
}

export { printCodeInfo, type Annotation } from './code-info-text.js';

/**
 * A metadata file's annotations, read as protoc reads it: the wire format, else the text format.
 * The content comes as a string (a file read as UTF-8, or Latin-1 when it is no valid UTF-8), so
 * the wire bytes are tried both ways. Undefined when it is neither.
 */
export function parseCodeInfo(content: string): Annotation[] | undefined {
  if (/^\s*(#[^\n]*\n\s*)*(annotation\b|$)/.test(content)) {
    try {
      return decodeCodeInfoText(content);
    } catch {
      // not text after all: try the wire format
    }
  }
  for (const bytes of [Buffer.from(content, 'utf8'), Buffer.from(content, 'latin1')]) {
    try {
      return decodeCodeInfo(bytes);
    } catch {
      // the other reading
    }
  }
  return undefined;
}

/** Two metadata files say the same thing: the same annotations in the same order, in any format. */
export function sameCodeInfo(a: string, b: string): boolean {
  const x = parseCodeInfo(a);
  const y = parseCodeInfo(b);
  if (!x || !y) return a === b;
  return JSON.stringify(x.map(canonical)) === JSON.stringify(y.map(canonical));
}

/** An annotation with unset fields at their defaults, so `begin: 0` and no `begin` compare equal. */
function canonical(a: Annotation): Annotation {
  return { path: a.path, sourceFile: a.sourceFile ?? '', begin: a.begin ?? 0, end: a.end ?? 0, semantic: a.semantic ?? 0 };
}

/** Where an insertion put its text: the start of the marker's line, its indentation, and the text. */
export interface InsertionSite {
  /** Offset of the marker line's start in the file before the insertion. */
  lineStart: number;
  indent: string;
  /** The inserted text as given (a final newline is added when missing, as the compiler does). */
  text: string;
}

/**
 * The file's metadata after an insertion (spec A, File.generated_code_info): the inserted
 * content's annotations are offset to where their text landed (the marker line's start, plus
 * the indentation added before each of its lines, Rules for File 5) and merged in before the
 * first existing annotation at or after the insertion, and existing annotations at or after it
 * move down by the inserted length. Where the spec is silent this follows protoc 3.21: an end
 * right after a newline of the inserted text moves past the next line's indentation, and an
 * existing annotation that begins before the insertion keeps its end even when it spans it.
 * Annotations are taken in the order a generator writes them.
 */
export function mergeCodeInfo(existing: readonly Annotation[], inserted: readonly Annotation[], site: InsertionSite): Annotation[] {
  const body = site.text === '' || site.text.endsWith('\n') ? site.text : `${site.text}\n`;
  const lines = body === '' ? 0 : body.split('\n').length - 1;
  const length = body.length + site.indent.length * lines;
  const newlinesBefore = (p: number): number => {
    let n = 0;
    for (let i = 0; i < Math.min(p, body.length - 1); i++) if (body[i] === '\n') n++;
    return n;
  };
  const at = (p: number): number => site.lineStart + p + site.indent.length * (1 + newlinesBefore(p));
  const moved: Annotation[] = inserted.map((a) => ({ ...a, path: [...a.path], begin: at(a.begin ?? 0), end: at(a.end ?? 0) }));
  const out: Annotation[] = [];
  let merged = false;
  for (const a of existing) {
    const begin = a.begin ?? 0;
    if (begin >= site.lineStart) {
      if (!merged) {
        out.push(...moved);
        merged = true;
      }
      out.push({ ...a, begin: begin + length, end: (a.end ?? 0) + length });
    } else out.push(a);
  }
  if (!merged) out.push(...moved);
  return out;
}
