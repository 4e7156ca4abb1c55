/**
 * The text format of a GeneratedCodeInfo, as protoc reads and writes a generator's `.pb.meta`
 * file when the generator wrote it so (plugins write file contents as text). Only what that
 * message holds: `annotation { path: .. source_file: ".." begin: .. end: .. semantic: .. }`.
 */

/** One `GeneratedCodeInfo.Annotation`: a span of the generated text and what it came from. */
export interface Annotation {
  path: number[];
  sourceFile?: string;
  begin?: number;
  end?: number;
  semantic?: number;
}

const SEMANTICS: Readonly<Record<string, number>> = { NONE: 0, SET: 1, ALIAS: 2 };
const SEMANTIC_NAMES = ['NONE', 'SET', 'ALIAS'];

type Token = { kind: 'ident' | 'number' | 'string' | 'punct'; text: string };

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v', '?': '?' };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) i++;
    else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ('{}[]:;,<>'.includes(c)) {
      out.push({ kind: 'punct', text: c });
      i++;
    } else if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') {
          const e = text[i + 1] ?? '';
          const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))?.[0];
          const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2, i + 4))?.[0] : undefined;
          if (octal) {
            s += String.fromCharCode(parseInt(octal, 8));
            i += 1 + octal.length;
          } else if (hex) {
            s += String.fromCharCode(parseInt(hex, 16));
            i += 2 + hex.length;
          } else {
            s += ESCAPES[e] ?? e;
            i += 2;
          }
        } else s += text[i++];
      }
      if (i >= text.length) throw new SyntaxError('unterminated string');
      i++;
      // adjacent string literals are one string, as in the text format
      const last = out[out.length - 1];
      if (last?.kind === 'string') last.text += s;
      else out.push({ kind: 'string', text: s });
    } else {
      const m = /^[-+]?[A-Za-z0-9_.]+/.exec(text.slice(i));
      if (!m) throw new SyntaxError(`unexpected ${JSON.stringify(c)}`);
      out.push({ kind: /^[-+]?\d/.test(m[0]) ? 'number' : 'ident', text: m[0] });
      i += m[0].length;
    }
  }
  return out;
}

/** Reads `name: value`, `name: [v, ...]` or `name { ... }` pairs until `close` (or the end). */
function readMessage(ts: Token[], at: { i: number }, close: string | undefined, onField: (name: string, value: Token | Token[][] | Token[]) => void): void {
  while (at.i < ts.length) {
    const t = ts[at.i] as Token;
    if (close !== undefined && t.kind === 'punct' && t.text === close) {
      at.i++;
      return;
    }
    if (t.kind === 'punct' && (t.text === ';' || t.text === ',')) {
      at.i++;
      continue;
    }
    if (t.kind !== 'ident') throw new SyntaxError(`expected a field name, got ${JSON.stringify(t.text)}`);
    at.i++;
    let next = ts[at.i];
    if (next?.kind === 'punct' && next.text === ':') {
      at.i++;
      next = ts[at.i];
    }
    if (next?.kind === 'punct' && (next.text === '{' || next.text === '<')) {
      at.i++;
      const inner: Token[][] = [];
      const end = next.text === '{' ? '}' : '>';
      readMessage(ts, at, end, (name, value) => inner.push([{ kind: 'ident', text: name }, ...(Array.isArray(value) ? (value.flat() as Token[]) : [value])]));
      onField(t.text, inner);
    } else if (next?.kind === 'punct' && next.text === '[') {
      at.i++;
      const values: Token[] = [];
      while (at.i < ts.length && !(ts[at.i]?.kind === 'punct' && ts[at.i]?.text === ']')) {
        const v = ts[at.i] as Token;
        if (!(v.kind === 'punct' && v.text === ',')) values.push(v);
        at.i++;
      }
      at.i++;
      onField(t.text, values);
    } else if (next && next.kind !== 'punct') {
      at.i++;
      onField(t.text, next);
    } else throw new SyntaxError(`field ${t.text} has no value`);
  }
  if (close !== undefined) throw new SyntaxError(`missing ${close}`);
}

/** The annotations of a GeneratedCodeInfo in the text format. Throws SyntaxError. */
export function decodeCodeInfoText(text: string): Annotation[] {
  const ts = tokens(text);
  const out: Annotation[] = [];
  readMessage(ts, { i: 0 }, undefined, (name, value) => {
    if (name !== 'annotation' || !Array.isArray(value)) throw new SyntaxError(`GeneratedCodeInfo has no field ${name}`);
    const a: Annotation = { path: [] };
    for (const entry of value as Token[][]) {
      const [key, ...vals] = entry;
      for (const v of vals) {
        const n = Number(v.text);
        if (key?.text === 'path') a.path.push(n);
        else if (key?.text === 'source_file') a.sourceFile = v.text;
        else if (key?.text === 'begin') a.begin = n;
        else if (key?.text === 'end') a.end = n;
        else if (key?.text === 'semantic') a.semantic = SEMANTICS[v.text] ?? n;
        else throw new SyntaxError(`Annotation has no field ${key?.text ?? '?'}`);
      }
    }
    out.push(a);
  });
  return out;
}

/** Annotations in the text format, as protoc prints a GeneratedCodeInfo. */
export function printCodeInfo(annotations: readonly Annotation[]): string {
  return annotations
    .map((a) => {
      const lines = a.path.map((p) => `  path: ${p}`);
      if (a.sourceFile !== undefined) lines.push(`  source_file: ${JSON.stringify(a.sourceFile)}`);
      if (a.begin !== undefined) lines.push(`  begin: ${a.begin}`);
      if (a.end !== undefined) lines.push(`  end: ${a.end}`);
      if (a.semantic !== undefined) lines.push(`  semantic: ${SEMANTIC_NAMES[a.semantic] ?? a.semantic}`);
      return `annotation {\n${lines.join('\n')}${lines.length ? '\n' : ''}}\n`;
    })
    .join('');
}

