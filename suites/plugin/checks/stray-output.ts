import { decodeResponse } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';

/**
 * A response with other output around it on stdout (spec A, Endpoints: "one response message is
 * written to standard output"). A plugin that prints a log line to stdout before or after its
 * answer leaves bytes that do not decode as a whole; the response is still in there, and finding
 * it tells "something besides the response was written" (PLUGIN-IO-STDOUT-ONLY-RESPONSE) apart
 * from "what was written is no response" (PLUGIN-IO-RESPONSE-DECODES).
 */
export interface StrayOutput {
  /** Where the other output is: lines of text before the response, or bytes after it. */
  position: 'before' | 'after';
  bytes: number;
  /** The first of those bytes, as text. */
  head: string;
}

/** How much leading text is looked at: log lines are short, answers may be huge. */
const LEADING_TEXT_LIMIT = 64 * 1024;

/** The printable-text lines stdout starts with (each ended by a newline), as a byte count. */
function leadingTextLines(out: Uint8Array): number {
  let end = 0;
  for (let i = 0; i < Math.min(out.length, LEADING_TEXT_LIMIT); i++) {
    const b = out[i] as number;
    if (b === 0x0a) end = i + 1;
    else if (b !== 0x09 && b !== 0x0d && (b < 0x20 || b > 0x7e)) break;
  }
  return end;
}

function varintEnd(buf: Uint8Array, at: number): number | undefined {
  for (let i = at; i < buf.length && i < at + 10; i++) if ((buf[i] as number) < 0x80) return i + 1;
  return undefined;
}

/**
 * Where the top-level fields of `out` stop parsing: the offset of the first field that is
 * malformed (a wire type that does not exist, a length past the end). `out.length` when all parse.
 */
function wellFormedPrefix(out: Uint8Array): number {
  let at = 0;
  while (at < out.length) {
    const tagEnd = varintEnd(out, at);
    if (tagEnd === undefined) return at;
    let tag = 0;
    for (let i = tagEnd - 1; i >= at; i--) tag = tag * 128 + ((out[i] as number) & 0x7f);
    const wire = tag % 8;
    if (tag < 8) return at;
    let next: number | undefined;
    if (wire === 0) next = varintEnd(out, tagEnd);
    else if (wire === 1) next = tagEnd + 8;
    else if (wire === 5) next = tagEnd + 4;
    else if (wire === 2) {
      const lenEnd = varintEnd(out, tagEnd);
      if (lenEnd !== undefined) {
        let len = 0;
        for (let i = lenEnd - 1; i >= tagEnd; i--) len = len * 128 + ((out[i] as number) & 0x7f);
        next = lenEnd + len;
      }
    }
    if (next === undefined || next > out.length) return at;
    at = next;
  }
  return at;
}

function decoded(bytes: Uint8Array): CodeGeneratorResponse | undefined {
  try {
    return decodeResponse(bytes);
  } catch {
    return undefined;
  }
}

function described(position: StrayOutput['position'], stray: Uint8Array): StrayOutput {
  return { position, bytes: stray.length, head: Buffer.from(stray.subarray(0, 120)).toString('utf8') };
}

/**
 * The response inside `out` when `out` does not decode as a whole: after lines of text it
 * starts with, or before bytes that follow a well-formed message. Undefined when there is none
 * (then the output is simply no response).
 */
export function responseWithin(out: Uint8Array): { response: CodeGeneratorResponse; bytes: Uint8Array; stray: StrayOutput } | undefined {
  const text = leadingTextLines(out);
  if (text > 0 && text < out.length) {
    const rest = out.subarray(text);
    const response = decoded(rest);
    if (response) return { response, bytes: rest, stray: described('before', out.subarray(0, text)) };
  }
  const cut = wellFormedPrefix(out);
  if (cut > 0 && cut < out.length) {
    const head = out.subarray(0, cut);
    const response = decoded(head);
    if (response) return { response, bytes: head, stray: described('after', out.subarray(cut)) };
  }
  return undefined;
}
