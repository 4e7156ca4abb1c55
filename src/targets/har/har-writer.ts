/**
 * HAR 1.2 as `specgate record` writes it: one entry per exchange, credentials masked
 * (har-masking.ts), bodies kept up to a cap, the whole file rewritten after every exchange so
 * that what was recorded is on disk whenever the recorder stops.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { SpecgateError } from '../../errors.js';
import { HarMasker } from './har-masking.js';

/** One exchange as the recorder saw it, bodies as bytes (at most the cap of each). */
export interface CapturedExchange {
  startedAt: Date;
  /** Milliseconds from the request's arrival to the answer's last byte. */
  durationMs: number;
  /** Milliseconds from the request's arrival to the upstream's answer headers (-1 without an answer). */
  waitMs: number;
  method: string;
  /** The URL as forwarded: the upstream's origin and base path, the client's path and query. */
  url: string;
  httpVersion: string;
  /** Raw header pairs, in the order they came (Host as forwarded). */
  requestHeaders: [string, string][];
  requestBody: Buffer;
  /** Bytes the request body had in all (more than `requestBody` holds when it was cut). */
  requestSize: number;
  /** The upstream's status, or 0 when it did not answer (the client got a 502). */
  status: number;
  statusText: string;
  responseHeaders: [string, string][];
  responseBody: Buffer;
  responseSize: number;
  /** Why there is no answer, when status is 0. */
  error?: string;
}

/** Marks a body the recorder cut: `_specgateCut` on a HAR `content` or `postData` (the loader reads it). */
export interface CutMark {
  kept: number;
  size: number;
}

type NameValue = { name: string; value: string };

const TEXTUAL = /^text\/|[/+](?:json|xml|javascript|x-www-form-urlencoded|yaml|csv|graphql)\b|^application\/(?:problem\+)?json/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function headerOf(pairs: readonly [string, string][], name: string): string | undefined {
  return pairs.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** The body as UTF-8 text, or undefined when it is not (then it is written as base64). */
function asText(bytes: Buffer, mimeType: string): string | undefined {
  if (mimeType !== '' && !TEXTUAL.test(mimeType) && bytes.length > 0) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The answer's bytes without their content encoding (HAR keeps the decoded body); undefined when they do not decode. */
function decoded(bytes: Buffer, encoding: string | undefined, cap: number): Buffer | undefined {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === '' || e === 'identity' || bytes.length === 0) return bytes;
  try {
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(bytes, { maxOutputLength: cap });
    if (e === 'deflate') return inflateSync(bytes, { maxOutputLength: cap });
    if (e === 'br') return brotliDecompressSync(bytes, { maxOutputLength: cap });
  } catch {
    return undefined;
  }
  return undefined;
}

/** A body's text, masked by its type (form, JSON, other text). */
function maskedBody(mask: HarMasker, text: string, mimeType: string): string {
  if (/x-www-form-urlencoded/i.test(mimeType)) return mask.form(text);
  if (/json/i.test(mimeType) || /^\s*[[{]/.test(text)) return mask.json(text);
  return mask.text(text);
}

const cutNote = (what: string, kept: number, size: number, cap: number): string => `${what} cut: the first ${kept} of ${size} bytes kept (--max-body ${cap})`;

/** The HAR `entries` item for one exchange, credentials masked by `mask`. */
export function harEntryOf(x: CapturedExchange, mask: HarMasker, cap: number): Record<string, unknown> {
  const reqHeaders: NameValue[] = x.requestHeaders.map(([name, value]) => ({ name, value: mask.header(name, value) }));
  const url = mask.url(x.url);
  const queryString: NameValue[] = [];
  try {
    for (const [name, value] of new URL(url).searchParams) queryString.push({ name, value });
  } catch {
    // the URL was built by the recorder from its own origin: it parses
  }
  const request: Record<string, unknown> = {
    method: x.method,
    url,
    httpVersion: x.httpVersion,
    cookies: [],
    headers: reqHeaders,
    queryString,
    headersSize: -1,
    bodySize: x.requestSize,
  };
  if (x.requestSize > 0) {
    const mimeType = headerOf(x.requestHeaders, 'content-type') ?? '';
    const text = asText(x.requestBody, mimeType);
    const postData: Record<string, unknown> = { mimeType };
    if (text !== undefined) postData['text'] = maskedBody(mask, text, mimeType);
    else {
      postData['text'] = x.requestBody.toString('base64');
      postData['_encoding'] = 'base64';
    }
    if (x.requestSize > x.requestBody.length) {
      postData['comment'] = cutNote('request body', x.requestBody.length, x.requestSize, cap);
      postData['_specgateCut'] = { kept: x.requestBody.length, size: x.requestSize } satisfies CutMark;
    }
    request['postData'] = postData;
  }

  const resHeaders: NameValue[] = x.responseHeaders.map(([name, value]) => ({ name, value: mask.header(name, value) }));
  const mimeType = headerOf(x.responseHeaders, 'content-type') ?? '';
  const content: Record<string, unknown> = { size: x.responseSize, mimeType };
  const cut = x.responseSize > x.responseBody.length;
  const encoding = headerOf(x.responseHeaders, 'content-encoding');
  const plain = cut && encoding !== undefined && !/^\s*identity\s*$/i.test(encoding) ? undefined : decoded(x.responseBody, encoding, cap);
  if (plain === undefined) content['comment'] = `body not kept: its ${encoding ?? ''} encoding could not be undone${cut ? ' on a cut body' : ''}`;
  else if (plain.length > 0) {
    const text = asText(plain, mimeType);
    if (text !== undefined) content['text'] = maskedBody(mask, text, mimeType);
    else {
      content['text'] = plain.toString('base64');
      content['encoding'] = 'base64';
    }
    if (plain !== x.responseBody) {
      content['size'] = plain.length;
      content['compression'] = plain.length - x.responseSize;
    }
    if (cut) {
      content['comment'] = cutNote('answer body', x.responseBody.length, x.responseSize, cap);
      content['_specgateCut'] = { kept: x.responseBody.length, size: x.responseSize } satisfies CutMark;
    }
  }
  const response: Record<string, unknown> = {
    status: x.status,
    statusText: x.statusText,
    httpVersion: x.status === 0 ? '' : x.httpVersion,
    cookies: [],
    headers: resHeaders,
    content,
    redirectURL: mask.header('location', headerOf(x.responseHeaders, 'location') ?? ''),
    headersSize: -1,
    bodySize: x.status === 0 ? -1 : x.responseSize,
  };
  const entry: Record<string, unknown> = {
    startedDateTime: x.startedAt.toISOString(),
    time: round(x.durationMs),
    request,
    response,
    cache: {},
    timings: { send: 0, wait: x.waitMs < 0 ? -1 : round(x.waitMs), receive: x.waitMs < 0 ? -1 : round(Math.max(0, x.durationMs - x.waitMs)) },
  };
  if (x.error !== undefined) {
    response['comment'] = mask.text(`no answer: ${x.error}; the client was answered 502`);
    response['_error'] = mask.text(x.error);
  }
  return entry;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * The HAR file being recorded: entries are added as exchanges end, and the file is rewritten
 * whole (to a temporary file beside it, then renamed over it) after each, so a reader never sees
 * half a file and a stop of any kind leaves every finished exchange on disk.
 */
export class HarLog {
  private readonly entries: Record<string, unknown>[] = [];
  private readonly mask = new HarMasker();

  constructor(
    readonly file: string,
    private readonly creator: { name: string; version: string },
    private readonly cap: number,
  ) {}

  get count(): number {
    return this.entries.length;
  }

  add(x: CapturedExchange): void {
    this.entries.push(harEntryOf(x, this.mask, this.cap));
  }

  /** The HAR document as it stands. */
  document(): { log: Record<string, unknown> } {
    return { log: { version: '1.2', creator: this.creator, entries: this.entries } };
  }

  /** Writes the file; an SG_USAGE error naming the file and the cause when it cannot be written. */
  write(): void {
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
    try {
      const fd = openSync(tmp, 'w', 0o644);
      try {
        writeSync(fd, `${JSON.stringify(this.document(), null, 1)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (e) {
      rmSync(tmp, { force: true });
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      throw new SpecgateError('SG_USAGE', `--har ${this.file}: the recording cannot be written (${code}); give a writable path`, { file: this.file }, { cause: e });
    }
  }
}
