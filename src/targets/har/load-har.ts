import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { schemaErrors } from '../../engine/loader/schema-check.js';
import { parseYaml, type YamlSource } from '../../engine/loader/yaml-source.js';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import { parseBody } from '../body-parse.js';
import type { RecordedExchange, Recording } from './recording.js';

/** HAR 1.2 shapes after schema validation (only what specgate reads). */
interface HarNameValue {
  name: string;
  value: string;
}
interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarNameValue[]; postData?: { mimeType: string; text?: string } };
  response: { status: number; headers: HarNameValue[]; content: { mimeType: string; text?: string; encoding?: string; _specgateCut?: unknown } };
}
interface HarFile {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

/**
 * Reads a HAR file and checks it against HAR 1.2 (schemas/har.schema.json). A file that cannot be
 * read, is not JSON, or breaks the format is an SG_CONFIG error naming the place
 * (`file:line:column: log.entries.3.response.status: ...`) — every problem at once.
 */
export function loadHar(path: string): Recording {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SpecgateError('SG_CONFIG', `--target har:${path}: the recording ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(e)})`}; give the path of a HAR file`, { file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new SpecgateError('SG_CONFIG', `${file}: not a HAR file: it is not JSON (${(e as Error).message}); export the recording again as HAR`, { file });
  }
  // positions are only worth a second (YAML) parse when there is something to point at
  let positioned: YamlSource | undefined;
  const src: YamlSource = {
    file,
    data,
    locate: (p) => (positioned ??= parseYaml(file, text, 'SG_CONFIG')).locate(p),
    locateKey: (p) => {
      positioned ??= parseYaml(file, text, 'SG_CONFIG');
      return positioned.locateKey ? positioned.locateKey(p) : positioned.locate(p);
    },
  };
  const problems = schemaErrors(src, 'har', 'SG_CONFIG');
  if (problems.length) {
    const errors = problems.map((p) => new SpecgateError('SG_CONFIG', `${entryNamed(p.message)} (not valid HAR 1.2; record the traffic again or fix the file)`, p.detail));
    throw errors.length === 1 ? (errors[0] as SpecgateError) : new SpecgateErrorList(errors);
  }
  const har = data as HarFile;
  return {
    file: path,
    creator: `${har.log.creator.name} ${har.log.creator.version}`.trim(),
    exchanges: har.log.entries.map((e, index) => toExchange(e, index)),
  };
}

/** `log.entries.3.request...` reads as "entry 3: request..." (the index users look for). */
function entryNamed(message: string): string {
  return message.replace(/: log\.entries\.(\d+)(?:\.|(?=:))/, (_m, i: string) => `: entry ${i}: `).replace(/: entry (\d+): :/, ': entry $1:');
}

function toExchange(e: HarEntry, index: number): RecordedExchange {
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
  const responseText = content.text === undefined ? undefined : content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
  const contentType = typeof responseHeaders['content-type'] === 'string' ? responseHeaders['content-type'] : content.mimeType;
  // a body `specgate record` cut at its --max-body is not parsed: half a document says nothing of its shape
  const cut = content._specgateCut !== undefined;
  const parsed = responseText === undefined || cut ? { body: undefined } : parseBody(contentType, responseText, `the answer of entry ${index}`);
  const x: RecordedExchange = {
    index,
    startedDateTime: e.startedDateTime,
    method: e.request.method.toUpperCase(),
    url: e.request.url,
    requestHeaders,
    status: e.response.status,
    responseHeaders,
    responseBody: parsed.body,
    durationMs: e.time,
  };
  if (e.request.postData?.text !== undefined) x.requestBody = e.request.postData.text;
  if (responseText !== undefined) x.responseText = responseText;
  if (parsed.parseError !== undefined) x.parseError = parsed.parseError;
  if (cut) x.bodyCut = true;
  return x;
}
