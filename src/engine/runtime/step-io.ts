import { basename } from 'node:path';
import { SpecgateError } from '../../errors.js';
import { stringify } from '../expressions.js';
import type { Exchange, ExecExpect, ExecSpec, HttpRequestSpec, StdinSpec } from '../model.js';
import { encodeForm, encodeJson } from '../../targets/request-body.js';
import { bodyKind, type BodyKind } from '../../targets/body-parse.js';
import { sendFor } from '../../targets/http-client.js';
import { issuedInAnswer, sentInRequest } from '../../targets/issued-credentials.js';
import type { ExecConfig, ExecResult, HttpRequest, HttpResponse, SuiteTarget } from '../../targets/types.js';
import type { StepScope } from './step-scope.js';
import { bodyPreview, type Observation } from './observation.js';
import { operationRequest } from '../api/operation-request.js';
import { renameSegments } from '../api/path-names.js';
import { neutralFieldNames, renameFields } from './field-names.js';

const ACCEPT: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
};

const keepName = (name: string): string => name;

/** Each target's namer, made once: it is asked for by every expectation of every case. */
const headerNamers = new WeakMap<SuiteTarget, (name: string) => string>();

/** Neutral spec header name -> the name this target uses (profile `headers:`). */
export function headerNamer(target: SuiteTarget): (name: string) => string {
  let namer = headerNamers.get(target);
  if (!namer) {
    const m = new Map(Object.entries(target.headerNames).map(([k, v]) => [k.toLowerCase(), v]));
    // a target that renames no header (most) keeps every name, with no lower-cased copy per lookup
    namer = m.size === 0 ? keepName : (name) => m.get(name.toLowerCase()) ?? name;
    headerNamers.set(target, namer);
  }
  return namer;
}

const neutralMaps = new WeakMap<SuiteTarget, Record<string, string>>();

/**
 * The answer with the target's field names turned into the spec's (the same answer when the
 * profile maps none): whatever its body parsed to, JSON or a form (an object of its fields).
 */
function inSpecNames(target: SuiteTarget, res: HttpResponse): HttpResponse {
  if (!target.fieldNames || res.body === undefined) return res;
  let names = neutralMaps.get(target);
  if (!names) neutralMaps.set(target, (names = neutralFieldNames(target.fieldNames)));
  const body = renameFields(res.body, names);
  return body === res.body ? res : { ...res, body };
}

/** An HTTP observation that keeps the response it came from (for typed checks). */
export type HttpObservation = Observation & { response: HttpResponse };

/**
 * Sends one (already resolved) request and observes the answer. Not an async function: a request
 * step is on every case's way, and a promise chain costs less than another suspended frame.
 */
export function sendRequest(run: StepScope, given: HttpRequestSpec): Promise<HttpObservation> {
  try {
    const req = requestOf(run, given);
    // the engine's own client stops with the case directly; any other is given the case's signal
    const stoppable = sendFor(run.http);
    if (!stoppable) req.signal = run.signal;
    const sent = stoppable ? stoppable(req, run.stopSource) : run.http.send(req);
    return sent.then((res) => observed(run, req, res));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The request a step's (resolved) spec describes, in the target's own header and path names. */
function requestOf(run: StepScope, given: HttpRequestSpec): HttpRequest {
  // a request by operation ID takes its method, URL, auth and required headers from the API table
  const built = operationRequest(run.suite.api, given, (v) => run.resolve(v));
  // the target's own words for the spec's neutral path segments (profile `paths:`)
  const spec = given.operation !== undefined && built.url !== undefined ? { ...built, url: renameSegments(built.url, run.target.pathNames) } : built;
  const headers: Record<string, string> = {};
  if (spec.headers) {
    const name = headerNamer(run.target);
    for (const [k, v] of Object.entries(spec.headers)) headers[name(k).toLowerCase()] = stringify(v);
  }
  // the target's own words for the spec's neutral field names (profile `fields:`): in a JSON
  // body, a form body and the query, wherever the spec's names are keys
  const names = run.target.fieldNames;
  const inTargetNames = <T>(value: T): T => (names ? (renameFields(value, names) as T) : value);
  let body: string | undefined;
  if (spec.form !== undefined) {
    body = encodeForm(inTargetNames(spec.form));
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (spec.json !== undefined) {
    body = encodeJson(inTargetNames(spec.json));
    headers['content-type'] ??= 'application/json';
  } else if (spec.raw !== undefined) body = spec.raw;
  if (spec.accept) headers['accept'] = ACCEPT[spec.accept] ?? spec.accept;
  if (spec.url === undefined) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${run.caseId}: a request has no url`);
  const url = spec.query ? withQuery(spec.url, inTargetNames(spec.query)) : spec.url;
  const method = (spec.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase();
  const req: HttpRequest = { method, url, headers };
  if (body !== undefined) req.body = body;
  if (spec.timeoutMs) req.timeoutMs = spec.timeoutMs;
  return req;
}

/** `url` with the query parameters added; a list repeats its name, one value each (`selectedDays[]=1&selectedDays[]=7`), as forms do. */
function withQuery(url: string, query: NonNullable<HttpRequestSpec['query']>): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SpecgateError('SG_CONFIG', `"${url}" is not an absolute URL; check the base URL variables in the target profile`);
  }
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== null) parsed.searchParams.append(k, stringify(item));
  }
  return parsed.toString();
}

/** Records the exchange and observes the answer. */
function observed(run: StepScope, req: HttpRequest, res: HttpResponse): HttpObservation {
  const { method, url, headers } = req;
  const body = req.body as string | undefined;
  // learned before anything of this exchange is kept, so that none of it shows them
  run.learn(sentInRequest({ url, headers, body }));
  run.learn(issuedInAnswer(res));
  const make = (): Exchange => ({
    kind: 'http' as const,
    summary: `${method} ${url} -> ${res.status}`,
    request: { method, url, headers, body: bodyPreview(body, (t) => run.redact(t)) },
    response: { status: res.status, headers: res.headers, body: bodyPreview(res.bodyText, (t) => run.redact(t)) },
    durationMs: res.durationMs,
  });
  const exchange = heldLightly(make, (body?.length ?? 0) + res.bodyText.length);
  run.note(exchange);
  // the answer read in the spec's field names (profile `fields:`); the exchange keeps it as received
  const obs = new HttpAnswer(method, url, inSpecNames(run.target, res), exchange);
  run.heard(obs, res.body);
  const asked = askedKind(headers['accept']);
  if (asked) obs.asked = asked;
  if (res.parseError !== undefined) obs.parseError = res.parseError;
  return obs;
}

/**
 * Above this many characters of bodies, an exchange is made when it is heard instead of when it
 * is reported: a case keeps its last few exchanges for its failures, and a lazy one holds the
 * whole answer (its bytes, its text and its parsed body) until then. Made early, it holds the
 * bounded preview a report shows (the secrets it masks are known from the start of the run).
 */
const LAZY_EXCHANGE_CHARS = 64 * 1024;

/** `make`, or for large bodies its result made now, so that what a case keeps stays small. */
function heldLightly(make: () => Exchange, chars: number): () => Exchange {
  if (chars <= LAZY_EXCHANGE_CHARS) return make;
  const made = make();
  return () => made;
}

/**
 * An HTTP answer as a step observes it. Its label (`GET /items/7`) parses the URL again, so it is
 * made only when a message or a listening check reads it.
 */
class HttpAnswer implements HttpObservation {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: unknown;
  readonly bodyText: string;
  readonly data: unknown;
  asked?: BodyKind;
  parseError?: string;
  readonly #method: string;
  readonly #url: string;
  #label: string | undefined;

  constructor(
    method: string,
    url: string,
    readonly response: HttpResponse,
    readonly exchange: () => Exchange,
  ) {
    this.#method = method;
    this.#url = url;
    this.status = response.status;
    this.headers = response.headers;
    this.body = response.body;
    this.bodyText = response.bodyText;
    this.data = response.body;
  }

  get label(): string {
    return (this.#label ??= `${this.#method} ${pathOf(this.#url)}`);
  }
}

/** The path of a URL, for naming an exchange in a message (the origin is the target's, the query may carry secrets). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The body format an Accept header asks for: its first media type, when specgate decodes it. */
function askedKind(accept: string | undefined): BodyKind | undefined {
  if (accept === undefined) return undefined;
  const comma = accept.indexOf(',');
  return bodyKind(comma === -1 ? accept : accept.slice(0, comma));
}

function stdinBytes(run: StepScope, spec: StdinSpec | undefined, vars: Record<string, unknown>): Uint8Array {
  if (!spec) return new Uint8Array(0);
  if (spec.text !== undefined) return Buffer.from(spec.text, 'utf8');
  if (spec.hex !== undefined) return Buffer.from(spec.hex.replace(/\s+/g, ''), 'hex');
  if (spec.base64 !== undefined) return Buffer.from(spec.base64, 'base64');
  if (spec.encode) return run.registry.codec(spec.encode.codec).encode(spec.encode.value);
  if (spec.from !== undefined) {
    const v = vars[spec.from];
    if (v instanceof Uint8Array) return v;
    if (typeof v === 'string') return Buffer.from(v, 'utf8');
    throw new SpecgateError('SG_EXPRESSION', `stdin.from names "${spec.from}", which holds no bytes or text`);
  }
  return new Uint8Array(0);
}

/** How a typed check names a process run in the report (CheckExec `label`, `describe`). */
export interface ExchangeDescriber {
  label?: string;
  describe?(result: ExecResult): { summary?: string; request?: unknown; response?: unknown };
}

/** What a process run gives its callers: the raw result and its recorded exchange. */
export interface ProcessRun {
  result: ExecResult;
  exchange: () => Exchange;
}

/**
 * Runs the target executable (or `spec.command`) once with `stdin`, through the engine's
 * runner (output caps, timeout, process-group cleanup when the case ends), and records it.
 */
export async function runProcess(run: StepScope, spec: Omit<ExecSpec, 'stdin'>, stdin: Uint8Array, extra: Partial<ExecConfig> = {}, describe?: ExchangeDescriber): Promise<ProcessRun> {
  const target = run.target.exec;
  // a process of the step's own `command` is not the target: it takes only the target's output caps
  const base: Partial<ExecConfig> | undefined = spec.command
    ? { ...(target?.maxStdoutBytes ? { maxStdoutBytes: target.maxStdoutBytes } : {}), ...(target?.maxStderrBytes ? { maxStderrBytes: target.maxStderrBytes } : {}) }
    : target;
  const [command, ...lead] = spec.command ?? (target ? [target.command, ...(target.args ?? [])] : []);
  if (!command) throw new SpecgateError('SG_CONFIG', `case ${run.caseId} runs an executable, but the target names none: give --plugin/--target with an exec command`);
  const env = { ...(base?.env ?? {}), ...(spec.env ?? {}) };
  const args = [...lead, ...(spec.args ?? [])];
  const res = await run.processes.run({
    ...(base ?? {}),
    ...extra,
    command,
    args,
    env,
    stdin,
    signal: run.signal,
    ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
  });
  const exchange = (): Exchange => {
    const more = describe?.describe?.(res) ?? {};
    const line = `${[command, ...args].join(' ')} (stdin ${stdin.length} bytes) -> exit ${res.exitCode ?? res.signal}`;
    return {
      kind: 'exec' as const,
      summary: more.summary ?? (describe?.label ? `${describe.label}: ${line}` : line),
      request: more.request ?? { command, args, stdinBytes: stdin.length },
      response: more.response ?? { exitCode: res.exitCode, signal: res.signal, stdoutBytes: res.stdout.length, stderr: bodyPreview(res.stderr, (t) => run.redact(t)) },
      durationMs: res.durationMs,
    };
  };
  run.note(exchange);
  return { result: res, exchange };
}

/** Runs the target executable (or the step's own command) once and observes it. */
export async function runExec(run: StepScope, spec: ExecSpec, expect: ExecExpect | undefined, vars: Record<string, unknown>): Promise<Observation> {
  const { result: res, exchange } = await runProcess(run, spec, stdinBytes(run, spec.stdin, vars));
  let stdout: unknown = Buffer.from(res.stdout).toString('utf8');
  let data: unknown = stdout;
  if (expect?.decode) {
    try {
      stdout = run.registry.codec(expect.decode).decode(res.stdout);
      data = stdout;
    } catch (e) {
      stdout = { $undecodable: `${expect.decode}: ${(e as Error).message}` };
      data = undefined;
    }
  }
  const command = spec.command?.[0] ?? run.target.exec?.command;
  return { exitCode: res.exitCode, stdout, stderr: res.stderr, data, exchange, body: data, label: command ? `the process ${basename(command)}` : 'the target executable' };
}
