import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { schemaErrors } from '../../engine/loader/schema-check.js';
import { parseYaml, type YamlSource } from '../../engine/loader/yaml-source.js';
import type { SourceLocation } from '../../engine/model.js';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { bodyKind, parseBody } from '../body-parse.js';
import { HTTP_DEFAULTS } from '../http-defaults.js';
import { BODY_PREVIEW_CHARS } from '../text-cut.js';
import { NotHarError, scanHarEntries, type FilePosition, type HarFrame, type ScannedEntry } from './entry-scanner.js';
import type { RecordedExchange, Recording, RecordingProblem } from './recording.js';

/** HAR 1.2 shapes after schema validation (only what specgate reads). */
interface HarNameValue {
  name: string;
  value: string;
}
interface HarPostData {
  mimeType: string;
  text?: string;
  params?: { name: string; value?: string }[];
  encoding?: string;
  _encoding?: string;
  _specgateCut?: { kept?: number; size?: number };
}
interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarNameValue[]; postData?: HarPostData };
  response: { status: number; headers: HarNameValue[]; content: { mimeType: string; text?: string; encoding?: string; _specgateCut?: { kept?: number; size?: number } } };
}

/** How much of a recording specgate holds (see docs/passive.md, "What the file must be"). */
export interface HarCaps {
  /** An entry larger than this (its JSON text, in bytes) is left out as a problem of that entry. */
  maxEntryBytes: number;
  /** A body specgate parses (JSON, form, XML) is kept to this many bytes; a longer one is kept cut and not parsed. */
  maxBodyBytes: number;
  /** A body of any other type is kept to this many bytes: reports show its beginning, no rule reads it. */
  maxOtherBodyBytes: number;
}

/** The caps of `--target har:` runs: a parsed body as large as a live answer may be (http.maxBodyBytes' default). */
export const HAR_CAPS: Readonly<HarCaps> = {
  maxEntryBytes: 32 * 1024 * 1024,
  maxBodyBytes: HTTP_DEFAULTS.maxBodyBytes,
  maxOtherBodyBytes: BODY_PREVIEW_CHARS,
};

/** Entries up to this size are parsed a second time for the line and column of a schema problem. */
const POSITIONED_ENTRY_CHARS = 256 * 1024;

/**
 * Reads a HAR file entry by entry (the file is never held whole) and checks each entry against
 * HAR 1.2 (schemas/har.schema.json). An entry that is not JSON, breaks the format, nests too
 * deep, is over the cap or is cut short by the end of the file is a problem of that entry
 * (`file:line:column: entry 3: ...`), left out of the recording; the rest is judged. A file that
 * cannot be read or is not HAR at all (not a JSON object, no `log.entries`, no `log.creator`) is
 * an SG_CONFIG error.
 */
export function loadHar(path: string, caps: HarCaps = HAR_CAPS): Recording {
  const file = resolve(path);
  try {
    if (!statSync(file).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SpecgateError('SG_CONFIG', `--target har:${path}: the recording ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(e)})`}; give the path of a HAR file`, { file });
  }
  const frame: HarFrame = {};
  const exchanges: RecordedExchange[] = [];
  const problems: RecordingProblem[] = [];
  let entries = 0;
  try {
    for (const scanned of scanHarEntries(file, caps.maxEntryBytes, frame)) {
      entries++;
      const read = readEntry(file, scanned, caps);
      if ('problem' in read) problems.push(read.problem);
      else exchanges.push(read.exchange);
    }
  } catch (e) {
    if (e instanceof NotHarError) throw new SpecgateError('SG_CONFIG', `${file}: not a HAR file: ${e.message}; export the recording again as HAR`, { file });
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new SpecgateError('SG_CONFIG', `--target har:${path}: the recording cannot be read (${code}); give the path of a HAR file`, { file });
    throw e;
  }
  const creator = checkFrame(file, frame);
  if (frame.tail) problems.push({ message: `${file}: ${frame.tail}` });
  return { file: path, creator: `${creator.name} ${creator.version}`.trim(), entries, exchanges, problems };
}

/** `log.version` and `log.creator`, which HAR 1.2 requires of the file as a whole. */
function checkFrame(file: string, frame: HarFrame): { name: string; version: string } {
  const parsed = (text: string | undefined): unknown => {
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  const log: Record<string, unknown> = { entries: [] };
  const version = parsed(frame.version);
  const creator = parsed(frame.creator);
  if (version !== undefined) log['version'] = version;
  if (creator !== undefined) log['creator'] = creator;
  const at: SourceLocation = { file, line: frame.log?.line ?? 1, column: frame.log?.column ?? 1 };
  const src: YamlSource = { file, data: { log }, locate: () => at };
  const problems = schemaErrors(src, 'har', 'SG_CONFIG');
  if (problems.length) {
    const errors = problems.map((p) => new SpecgateError('SG_CONFIG', `${p.message} (not valid HAR 1.2; export the recording again or fix the file)`, p.detail));
    throw errors.length === 1 ? (errors[0] as SpecgateError) : new SpecgateErrorList(errors);
  }
  return creator as { name: string; version: string };
}

type EntryRead = { exchange: RecordedExchange } | { problem: RecordingProblem };

/** One scanned entry as an exchange, or the problem that leaves it out. */
function readEntry(file: string, scanned: ScannedEntry, caps: HarCaps): EntryRead {
  const { index } = scanned;
  const problem = (message: string, at: FilePosition = scanned): EntryRead => ({ problem: { index, message: `${file}:${at.line}:${at.column}: entry ${index}: ${message}` } });
  if ('problem' in scanned) return problem(scanned.problem);
  let data: unknown;
  try {
    data = JSON.parse(scanned.text) as unknown;
  } catch (e) {
    return problem(`it is not JSON (${(e as Error).message}); it is left out — fix the entry or export the recording again`);
  }
  const broken = entryProblems(file, scanned, data);
  if (broken.length) {
    const first = broken[0] as { at: FilePosition; text: string };
    return problem(`${broken.map((b) => b.text).join('; ')} (not valid HAR 1.2); it is left out — fix the entry or record the traffic again`, first.at);
  }
  try {
    return { exchange: toExchange(data as HarEntry, index, caps) };
  } catch (e) {
    // a body nested beyond the parser's limit: specgate cannot judge it, the other entries it can
    if (e instanceof SpecgateError) return problem(`${e.message}; it is left out — judge that exchange against the live service`);
    throw e;
  }
}

/** The entry's violations of HAR 1.2, each with its place in the file. */
function entryProblems(file: string, scanned: ScannedEntry & { text: string }, entry: unknown): { at: FilePosition; text: string }[] {
  const prefix = ['log', 'entries', '0'];
  let positioned: YamlSource | undefined | null;
  const locate = (p: readonly (string | number)[], key: boolean): SourceLocation => {
    const rest = p.slice(prefix.length);
    const whole: SourceLocation = { file, line: scanned.line, column: scanned.column };
    if (positioned === undefined) {
      try {
        positioned = scanned.text.length <= POSITIONED_ENTRY_CHARS ? parseYaml(file, scanned.text, 'SG_CONFIG') : null;
      } catch {
        positioned = null;
      }
    }
    if (!positioned || rest.length === 0) return whole;
    const inner = key && positioned.locateKey ? positioned.locateKey(rest) : positioned.locate(rest);
    return { file, line: scanned.line + inner.line - 1, column: inner.line === 1 ? scanned.column + inner.column - 1 : inner.column };
  };
  const src: YamlSource = {
    file,
    data: { log: { version: '1.2', creator: { name: '', version: '' }, entries: [entry] } },
    locate: (p) => locate(p, false),
    locateKey: (p) => locate(p, true),
  };
  return schemaErrors(src, 'har', 'SG_CONFIG').map((e) => {
    const d = e.detail as { line: number; column: number };
    // `file:1:2: log.entries.0.request: missing ...` -> `request: missing ...`
    const text = e.message.replace(/^.*?:\d+:\d+: /, '').replace(/^log\.entries\.0(?:\.|: ?)?/, '');
    return { at: { line: d.line, column: d.column }, text };
  });
}

/** A body as specgate keeps it: decoded, and cut to its cap with its whole length when longer. */
interface KeptBody {
  text: string;
  /** The whole body's length in bytes, when `text` is only its beginning. */
  cutFrom?: number;
}

function keepBody(text: string, base64: boolean, cap: number): KeptBody {
  if (base64) {
    const clean = text.replace(/\s+/g, '');
    const size = Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
    if (size <= cap) return { text: Buffer.from(clean, 'base64').toString('utf8') };
    return { text: Buffer.from(clean.slice(0, Math.ceil(cap / 3) * 4), 'base64').subarray(0, cap).toString('utf8'), cutFrom: size };
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= cap) return { text };
  // a new string: a slice would keep the whole body alive
  return { text: Buffer.from(text.slice(0, cap), 'utf8').subarray(0, cap).toString('utf8'), cutFrom: size };
}

/** A request body: its text (base64 decoded), or the form its `params` list when the recorder left the text out. */
function requestBody(postData: HarPostData | undefined, contentType: string | undefined, caps: HarCaps): KeptBody | undefined {
  if (!postData) return undefined;
  const cap = bodyKind(contentType ?? postData.mimeType) === undefined ? caps.maxOtherBodyBytes : caps.maxBodyBytes;
  if (postData.text !== undefined) {
    const kept = keepBody(postData.text, postData.encoding === 'base64' || postData._encoding === 'base64', cap);
    // a body `specgate record` cut at its --max-body is cut all the same, as an answer's is
    const mark = postData._specgateCut;
    if (kept.cutFrom === undefined && mark !== undefined) return { text: kept.text, cutFrom: typeof mark.size === 'number' ? mark.size : kept.text.length };
    return kept;
  }
  const type = (contentType ?? postData.mimeType).toLowerCase();
  if (!postData.params || !(type === '' || type.startsWith('application/x-www-form-urlencoded'))) return undefined;
  return keepBody(new URLSearchParams(postData.params.map((p): [string, string] => [p.name, p.value ?? ''])).toString(), false, cap);
}

function toExchange(e: HarEntry, index: number, caps: HarCaps): RecordedExchange {
  const requestHeaders: Record<string, string> = {};
  for (const h of e.request.headers) {
    const k = h.name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority, :path) are not headers of the request
    if (k.startsWith(':')) continue;
    requestHeaders[k] = requestHeaders[k] === undefined ? h.value : `${requestHeaders[k]}, ${h.value}`;
  }
  const responseHeaders: Record<string, string | string[]> = {};
  for (const h of e.response.headers) {
    const k = h.name.toLowerCase();
    if (k.startsWith(':')) continue;
    const prev = responseHeaders[k];
    if (k === 'set-cookie') responseHeaders[k] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), h.value];
    else responseHeaders[k] = prev === undefined ? h.value : `${String(prev)}, ${h.value}`;
  }
  const content = e.response.content;
  const contentType = typeof responseHeaders['content-type'] === 'string' ? responseHeaders['content-type'] : content.mimeType;
  const parsable = bodyKind(contentType) !== undefined;
  const kept = content.text === undefined ? undefined : keepBody(content.text, content.encoding === 'base64', parsable ? caps.maxBodyBytes : caps.maxOtherBodyBytes);
  // a body `specgate record` cut at its --max-body (`_specgateCut`) is cut all the same
  const recorderCut = content._specgateCut !== undefined ? (typeof content._specgateCut.size === 'number' ? content._specgateCut.size : (kept?.text.length ?? 0)) : undefined;
  const cutFrom = kept?.cutFrom ?? recorderCut;
  // a cut body is not parsed: rules that read the body say it was cut instead of judging a piece
  const parsed = kept === undefined || cutFrom !== undefined ? { body: undefined } : parseBody(contentType, kept.text, `the answer of entry ${index}`);
  const x: RecordedExchange = {
    index,
    startedDateTime: e.startedDateTime,
    method: e.request.method.toUpperCase(),
    url: e.request.url,
    requestHeaders,
    status: e.response.status,
    responseHeaders,
    responseBody: parsed.body,
    // recorders write -1 when they did not time the exchange
    durationMs: e.time >= 0 ? e.time : 0,
  };
  const request = requestBody(e.request.postData, requestHeaders['content-type'], caps);
  if (request !== undefined) {
    x.requestBody = request.text;
    if (request.cutFrom !== undefined) x.requestCut = request.cutFrom;
  }
  if (kept !== undefined) {
    x.responseText = kept.text;
    if (cutFrom !== undefined) x.responseCut = { size: cutFrom, parsable };
  }
  if (parsed.parseError !== undefined) x.parseError = parsed.parseError;
  return x;
}
