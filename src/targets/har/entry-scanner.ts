import { closeSync, openSync, readSync } from 'node:fs';
import { MAX_JSON_DEPTH } from '../body-parse.js';

/**
 * Reads a HAR file's `log.entries` one entry at a time, in bounded memory: a scan of the bytes
 * finds where each entry begins and ends (strings skipped, nesting counted), and only one entry's
 * text is held at a time. An entry nested deeper than {@link MAX_JSON_DEPTH}, larger than the
 * cap, or cut short by the end of the file comes back as a problem of that entry, not as text.
 * The scan checks only the structure around the entries (`{"log":{..."entries":[...]}}`); each
 * entry's own JSON is checked by whoever parses its text.
 */

/** Where a value starts in the file (1-based, columns in bytes). */
export interface FilePosition {
  line: number;
  column: number;
}

/** One item of `log.entries`: its text, or why it is not given. */
export type ScannedEntry = FilePosition & { index: number } & ({ text: string } | { problem: string });

/** The file is not HAR at all: nothing in it can be judged. */
export class NotHarError extends Error {}

/** What the scan found around the entries. */
export interface HarFrame {
  /** JSON text of `log.version` and `log.creator` (each at most {@link FRAME_VALUE_CAP} bytes), when present. */
  version?: string;
  creator?: string;
  /** Where `log` starts, for messages about it. */
  log?: FilePosition;
  /** A problem of the file after its entries (cut short, broken), which no entry owns. */
  tail?: string;
}

/** Bytes read at a time. */
const CHUNK = 1024 * 1024;
/** `log.version` and `log.creator` are small; anything larger there is not HAR. */
const FRAME_VALUE_CAP = 64 * 1024;
/** A key of `log` or of the top object is read up to this length (longer ones are no key specgate reads). */
const KEY_CAP = 64;

const enum Ch {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Comma = 0x2c,
  Colon = 0x3a,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

type State = 'top' | 'frame' | 'entries' | 'value' | 'key' | 'done';

const isSpace = (c: number): boolean => c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab;

/** A value being skipped or captured: an entry, a frame value, or something specgate does not read. */
interface ValueScan {
  purpose: 'entry' | 'version' | 'creator' | 'skip';
  cap: number;
  depth: number;
  maxDepth: number;
  inString: boolean;
  escape: boolean;
  scalar: boolean;
  pieces: Buffer[] | undefined;
  size: number;
  at: FilePosition;
}

/** An object around the entries: the top one (1) or `log` (2). */
interface Frame {
  level: 1 | 2;
  expect: 'key' | 'firstKey' | 'colon' | 'value' | 'next';
  key: string;
}

/**
 * Yields every item of `log.entries` in order. Throws {@link NotHarError} when the file has no
 * `log.entries` array inside a top-level object (not JSON, another document, empty); reads no
 * further than the first break in the structure around the entries (then `frame.tail` says why).
 * @param maxEntryBytes an entry larger than this is a problem, its bytes not kept.
 */
export function* scanHarEntries(file: string, maxEntryBytes: number, frame: HarFrame): Generator<ScannedEntry> {
  const fd = openSync(file, 'r');
  try {
    yield* scan(fd, maxEntryBytes, frame);
  } finally {
    closeSync(fd);
  }
}

function* scan(fd: number, maxEntryBytes: number, frame: HarFrame): Generator<ScannedEntry> {
  const buf = Buffer.allocUnsafe(CHUNK);
  const frames: Frame[] = [];
  // set by the helpers below too, which narrowing does not see: compared through `now()`
  let state: State = 'top';
  const now = (): State => state;
  /** In the entries array: an item or `]` may come (true), or `,` or `]` (false). */
  let entriesExpectItem = true;
  let entriesFirst = true;
  let sawEntries = false;
  let index = 0;
  let value: ValueScan | undefined;
  let keyBytes: number[] = [];
  let keyEscape = false;
  let line = 1;
  /** File offset of the first byte of the current line. */
  let lineStart = 0;
  let offset = 0;
  let first = true;

  const position = (at: number): FilePosition => ({ line, column: offset + at - lineStart + 1 });
  const broken = (c: number, at: number, what: string): never | void => {
    const p = position(at);
    const shown = c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16)}`;
    const msg = `line ${p.line}, column ${p.column}: ${shown} where ${what} belongs`;
    if (!sawEntries) throw new NotHarError(`it is not a HAR file's JSON: ${msg}`);
    frame.tail = `${msg}; the file is read no further`;
    state = 'done';
  };

  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) break;
    let i = 0;
    if (first) {
      first = false;
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
    }
    /** Where the captured part of the current value starts in this chunk. */
    let from = value ? 0 : -1;
    /** The next backslash at or after the scan (n when none is left in this chunk): found once, not once per string. */
    let nextBackslash = -1;
    while (i < n && now() !== 'done') {
      if (state === 'value') {
        const v = value as ValueScan;
        if (v.inString) {
          if (v.escape) {
            v.escape = false;
            i++;
            continue;
          }
          let q = buf.indexOf(Ch.Quote, i);
          // the buffer's tail past n holds an earlier chunk's bytes
          if (q >= n) q = -1;
          const end = q === -1 ? n : q;
          if (nextBackslash < i) {
            const b = buf.indexOf(Ch.Backslash, i);
            nextBackslash = b === -1 || b >= n ? n : b;
          }
          const b = nextBackslash;
          if (b < end) {
            v.escape = true;
            i = b + 1;
            continue;
          }
          if (q === -1) {
            i = n;
            continue;
          }
          v.inString = false;
          i = q + 1;
          if (v.depth === 0) {
            finish(v, buf, from, i);
            const done = endValue(v);
            if (done) yield done;
            value = undefined;
          }
          continue;
        }
        const c = buf[i] as number;
        if (v.scalar) {
          if (isSpace(c) || c === Ch.Comma || c === Ch.CloseBracket || c === Ch.CloseBrace) {
            finish(v, buf, from, i);
            const done = endValue(v);
            if (done) yield done;
            value = undefined;
            continue;
          }
          i++;
          continue;
        }
        if (c === Ch.Quote) v.inString = true;
        else if (c === Ch.OpenBrace || c === Ch.OpenBracket) {
          if (++v.depth > v.maxDepth) v.maxDepth = v.depth;
          if (v.depth > MAX_JSON_DEPTH) v.pieces = undefined;
        } else if (c === Ch.CloseBrace || c === Ch.CloseBracket) {
          if (--v.depth === 0) {
            i++;
            finish(v, buf, from, i);
            const done = endValue(v);
            if (done) yield done;
            value = undefined;
            continue;
          }
        } else if (c === Ch.Lf) {
          line++;
          lineStart = offset + i + 1;
        }
        i++;
        continue;
      }
      if (state === 'key') {
        const c = buf[i++] as number;
        if (keyEscape) keyEscape = false;
        else if (c === Ch.Backslash) keyEscape = true;
        else if (c === Ch.Quote) {
          const f = frames[frames.length - 1] as Frame;
          f.key = keyBytes.length > KEY_CAP ? '' : Buffer.from(keyBytes).toString('utf8');
          f.expect = 'colon';
          keyBytes = [];
          state = 'frame';
          continue;
        }
        if (keyBytes.length <= KEY_CAP) keyBytes.push(c);
        continue;
      }
      const c = buf[i] as number;
      if (isSpace(c)) {
        if (c === Ch.Lf) {
          line++;
          lineStart = offset + i + 1;
        }
        i++;
        continue;
      }
      if (state === 'top') {
        if (c !== Ch.OpenBrace) throw new NotHarError(c === Ch.OpenBracket ? 'its top is a JSON array, where a HAR file has an object with log.entries' : `it is not JSON: it begins with ${c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16)}`}, where a HAR file begins with "{"`);
        frames.push({ level: 1, expect: 'firstKey', key: '' });
        state = 'frame';
        i++;
        continue;
      }
      if (state === 'entries') {
        if (c === Ch.CloseBracket && (entriesFirst || !entriesExpectItem)) {
          state = 'frame';
          (frames[frames.length - 1] as Frame).expect = 'next';
          i++;
          continue;
        }
        if (!entriesExpectItem) {
          if (c === Ch.Comma) entriesExpectItem = true;
          else broken(c, i, `"," or "]" after entry ${index - 1}`);
          i++;
          continue;
        }
        entriesFirst = false;
        entriesExpectItem = false;
        value = startValue('entry', maxEntryBytes, c, position(i));
        state = 'value';
        from = i;
        if (!value.scalar) {
          if (c === Ch.Quote) value.inString = true;
          else value.depth = value.maxDepth = 1;
          i++;
        }
        continue;
      }
      // state === 'frame': inside the top object or `log`
      const f = frames[frames.length - 1] as Frame;
      if (f.expect === 'key' || f.expect === 'firstKey') {
        if (c === Ch.Quote) {
          state = 'key';
          i++;
        } else if (c === Ch.CloseBrace && f.expect === 'firstKey') {
          closeFrame();
          i++;
        } else {
          broken(c, i, 'a key');
          i++;
        }
        continue;
      }
      if (f.expect === 'colon') {
        if (c === Ch.Colon) f.expect = 'value';
        else broken(c, i, '":"');
        i++;
        continue;
      }
      if (f.expect === 'next') {
        if (c === Ch.Comma) f.expect = 'key';
        else if (c === Ch.CloseBrace) closeFrame();
        else broken(c, i, '"," or "}"');
        i++;
        continue;
      }
      // a value of the top object or of log
      f.expect = 'next';
      if (f.level === 1 && f.key === 'log' && c === Ch.OpenBrace) {
        frame.log = position(i);
        frames.push({ level: 2, expect: 'firstKey', key: '' });
        i++;
        continue;
      }
      if (f.level === 2 && f.key === 'entries' && c === Ch.OpenBracket && !sawEntries) {
        sawEntries = true;
        state = 'entries';
        i++;
        continue;
      }
      const purpose = f.level === 2 && (f.key === 'version' || f.key === 'creator') ? f.key : 'skip';
      value = startValue(purpose, FRAME_VALUE_CAP, c, position(i));
      state = 'value';
      from = i;
      if (!value.scalar) {
        if (c === Ch.Quote) value.inString = true;
        else value.depth = value.maxDepth = 1;
        i++;
      }
    }
    if (value && state === 'value') finish(value, buf, from, n);
    offset += n;
    if (now() === 'done') break;
  }
  if (state === 'value' && value?.purpose === 'entry') {
    yield { index, ...value.at, problem: 'the file ends inside this entry: it is cut short (the recording was not written to the end); the entries before it are judged — record the traffic again to judge the rest' };
    return;
  }
  if (!sawEntries) throw new NotHarError(state === 'top' ? 'it is empty' : frame.log ? 'its log has no entries array (log.entries)' : 'it has no log object with entries (log.entries)');
  if (state === 'entries' || state === 'value' || state === 'key' || (state === 'frame' && frames.length))
    frame.tail ??= `the file ends before ${state === 'entries' ? `log.entries closes (after entry ${index - 1})` : 'its top object closes'}: it is cut short, though every entry it holds is whole`;

  function closeFrame(): void {
    frames.pop();
    if (frames.length === 0) state = 'done';
    else (frames[frames.length - 1] as Frame).expect = 'next';
  }

  /** The value has ended: an entry to hand out, or a frame value kept. */
  function endValue(v: ValueScan): ScannedEntry | undefined {
    state = v.purpose === 'entry' ? 'entries' : 'frame';
    if (v.purpose === 'skip') return undefined;
    const text = v.pieces ? Buffer.concat(v.pieces).toString('utf8') : undefined;
    if (v.purpose !== 'entry') {
      if (text !== undefined) frame[v.purpose] = text;
      return undefined;
    }
    const at = { index: index++, ...v.at };
    if (v.maxDepth > MAX_JSON_DEPTH) return { ...at, problem: `it nests JSON ${v.maxDepth} levels deep, beyond specgate's limit of ${MAX_JSON_DEPTH}; it is left out — remove the deep value from the entry to judge it` };
    if (text === undefined) return { ...at, problem: `it is ${v.size} bytes, over the cap of ${v.cap} bytes a recorded exchange may take; it is left out — export the recording without that exchange's body, or judge it against the live service` };
    return { ...at, text };
  }
}

function startValue(purpose: ValueScan['purpose'], cap: number, c: number, at: FilePosition): ValueScan {
  const scalar = c !== Ch.Quote && c !== Ch.OpenBrace && c !== Ch.OpenBracket;
  return { purpose, cap, depth: 0, maxDepth: 0, inString: false, escape: false, scalar, pieces: purpose === 'skip' ? undefined : [], size: 0, at };
}

/** Keeps the bytes of the value in this chunk, up to its cap (beyond it, none at all). */
function finish(v: ValueScan, buf: Buffer, from: number, to: number): void {
  if (from < 0 || to <= from) return;
  v.size += to - from;
  if (!v.pieces) return;
  if (v.size > v.cap) v.pieces = undefined;
  else v.pieces.push(Buffer.from(buf.subarray(from, to)));
}
