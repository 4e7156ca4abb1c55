import { findOperation, templateParams, type ApiOperation, type ApiTable } from '../api/table.js';
import type { CaseDef, Step } from '../model.js';
import { matchBelowBase } from './match-recording.js';
import { PASSIVE_JUDGES } from './passive-judges.js';

/**
 * What a recorded exchange must show to stand for one step of a case judged from a recording
 * (`passive: judge`): the request the step would send, read from the step's own words only —
 * never from what it expects of the answer, so that a failing answer is never passed over for a
 * passing one. Values may hold `${...}`: a variable still unknown binds the recorded value.
 */
export interface RequestPattern {
  kind: 'request';
  /** The step's place in the case (0-based). */
  step: number;
  operation: ApiOperation;
  /** Path parameter -> the value the step would fill in (a template), when it says one. */
  params: Record<string, unknown>;
  /**
   * The path parameters the step fills in itself (not the table's `params:` defaults, the
   * profile's accounts): the items the case addresses, which the interleaved-write guard watches.
   */
  addresses: string[];
  /** Query parameter -> the value (a list repeats the name); the recorded names must be exactly these. */
  query: Record<string, unknown>;
  /** Lower-cased header -> value, for the headers the step sets itself. */
  headers: Record<string, unknown>;
  /** Lower-cased headers the recorded request must carry, whatever their value (credentials the step sends). */
  present: string[];
  /** Lower-cased headers it must not carry (credentials or conditions the step does not send). */
  absent: string[];
  json?: unknown;
  form?: Record<string, unknown>;
  raw?: string;
  capture?: Record<string, string>;
  /** For an `api.*` verifier step: its name (`served`), judged by passive-judges.ts instead of an expectation. */
  verifier?: string;
  /** The request in words, for the reason a recording lacks it ("GET ipRanges without credentials"). */
  words: string;
}

/** A `set:` step: values the case assigns, known once the variables they read are. */
export interface SetPattern {
  kind: 'set';
  step: number;
  values: Record<string, unknown>;
}

export type StepPattern = RequestPattern | SetPattern;

/** A step a recording cannot stand in for, and why. */
export interface PassiveProblem {
  step: number;
  /** Where in the step (for the loader's position). */
  path: (string | number)[];
  message: string;
}

/**
 * Headers whose presence changes what an answer means: a conditional request may be answered
 * 304 with no body. A step that does not send one matches only requests without it.
 */
const CONDITIONAL = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];

/** The patterns of a case's steps, or the problems that keep it from being judged from a recording. */
export function casePatterns(c: CaseDef, table: ApiTable | undefined): { patterns: StepPattern[]; problems: PassiveProblem[] } {
  const patterns: StepPattern[] = [];
  const problems: PassiveProblem[] = [];
  if (c.property) problems.push({ step: -1, path: ['property'], message: 'a case of generated input sends requests of its own, which no recording holds' });
  if (!table) problems.push({ step: -1, path: ['passive'], message: 'the suite describes no HTTP API (api.yaml), so recorded traffic cannot be matched to its requests' });
  c.steps.forEach((step, j) => {
    const p = stepPattern(step, j, table);
    if (p === undefined) return;
    if ('message' in p) problems.push(p);
    else patterns.push(p);
  });
  return { patterns, problems };
}

function stepPattern(step: Step, j: number, table: ApiTable | undefined): StepPattern | PassiveProblem | undefined {
  const refuse = (path: (string | number)[], what: string): PassiveProblem => ({ step: j, path, message: `step ${j + 1} ${what}, which a recording cannot stand in for` });
  if (step.repeat !== undefined) return refuse(['repeat'], 'repeats until a condition holds (a state the live case waits for)');
  if ('set' in step) return { kind: 'set', step: j, values: step.set };
  if ('request' in step) return table ? requestPattern(step.request, step.capture, j, table) : undefined;
  if ('check' in step) {
    const verifier = step.check.startsWith('api.') ? step.check.slice(4) : undefined;
    if (verifier === undefined || !Object.hasOwn(PASSIVE_JUDGES, verifier)) return refuse(['check'], `is the typed check ${step.check}, which sends requests of its own`);
    const args = step.with ?? {};
    const operation = args['operation'];
    if (typeof operation !== 'string' || operation.includes('${')) return refuse(['with', 'operation'], `judges an operation named by an expression (${String(operation)})`);
    if (!table) return undefined;
    const p = requestPattern({ operation, ...pick(args, ['params', 'query', 'json']) }, step.capture, j, table);
    if ('message' in p) return p;
    // the verifier says itself which exchanges it judges (with or without credentials)
    return { ...p, present: [], absent: [], verifier };
  }
  const kind = 'exec' in step ? 'runs a process' : 'agent' in step ? 'asks a user agent to act' : 'query' in step ? 'queries the target' : 'wait' in step ? 'waits' : 'command' in step ? 'runs a command' : 'acts on the target';
  return refuse([], kind);
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

interface RequestWords {
  operation?: unknown;
  url?: unknown;
  method?: unknown;
  params?: unknown;
  auth?: unknown;
  headers?: unknown;
  query?: unknown;
  json?: unknown;
  form?: unknown;
  raw?: unknown;
  accept?: unknown;
}

function requestPattern(spec: RequestWords, capture: Record<string, string> | undefined, j: number, table: ApiTable): RequestPattern | PassiveProblem {
  const problem = (path: (string | number)[], message: string): PassiveProblem => ({ step: j, path, message: `step ${j + 1}: ${message}` });
  let op: ApiOperation | undefined;
  let params: Record<string, unknown> = {};
  let query: Record<string, unknown> = {};
  let addresses: string[] = [];
  const byUrl = spec.operation === undefined;
  if (!byUrl) {
    if (typeof spec.operation !== 'string' || spec.operation.includes('${')) return problem(['request', 'operation'], 'an operation named by an expression cannot be matched to recorded traffic');
    op = findOperation(table, spec.operation);
    if (!op) return problem(['request', 'operation'], `no operation "${spec.operation}" in ${table.file}`);
    const given = (spec.params ?? {}) as Record<string, unknown>;
    for (const name of templateParams(op.path)) {
      const v = given[name] ?? table.params[name];
      if (v !== undefined && v !== null) params[name] = v;
      if (given[name] !== undefined && given[name] !== null) addresses.push(name);
    }
  } else {
    if (typeof spec.url !== 'string') return problem(['request', 'url'], 'a request needs a url or an operation');
    const read = urlTemplate(spec.url);
    const method = typeof spec.method === 'string' ? spec.method.toUpperCase() : 'GET';
    const m = matchBelowBase(table, method, read.path);
    if (!m.ok) return problem(['request', 'url'], `${method} ${spec.url} fits no operation of ${table.file} (${m.message}), so no recorded exchange can stand for it`);
    op = m.operation;
    params = Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, read.restore(v)]));
    // a segment written as the table's default for it (`${owner}`) is the profile's account, as for an operation request
    addresses = Object.keys(params).filter((k) => params[k] !== table.params[k]);
    query = read.query;
  }
  if (typeof spec.method === 'string' && spec.method.toUpperCase() !== op.method) return problem(['request', 'method'], `${spec.method} is not the method of operation ${op.id} (${op.method}): a recording holds such a request as stray traffic`);
  if (spec.query !== undefined && spec.query !== null) query = { ...query, ...(spec.query as Record<string, unknown>) };
  query = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)));
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((spec.headers ?? {}) as Record<string, unknown>)) headers[k.toLowerCase()] = v;
  if (typeof spec.accept === 'string') headers['accept'] = ACCEPT[spec.accept] ?? spec.accept;
  const present: string[] = [];
  const absent: string[] = [];
  const fixPresence = (name: string, sends: boolean): void => {
    if (headers[name] !== undefined) return;
    (sends ? present : absent).push(name);
  };
  const authHeader = table.auth?.header.toLowerCase();
  if (authHeader) fixPresence(authHeader, !byUrl && op.auth && spec.auth !== false);
  // a required header the profile fills in (a key, a token) is a credential: sent by an operation request, by a url request only when it names it
  for (const [name, value] of Object.entries(op.requiredHeaders)) if (value.includes('${')) fixPresence(name.toLowerCase(), !byUrl);
  for (const name of CONDITIONAL) fixPresence(name, false);
  const body = spec.form !== undefined ? { form: spec.form as Record<string, unknown> } : spec.json !== undefined ? { json: spec.json } : typeof spec.raw === 'string' ? { raw: spec.raw } : {};
  const pattern: RequestPattern = { kind: 'request', step: j, operation: op, params, addresses, query, headers, present, absent, ...body, ...(capture ? { capture } : {}), words: '' };
  pattern.words = requestWords(pattern, authHeader);
  return pattern;
}

const ACCEPT: Record<string, string> = { json: 'application/json', xml: 'application/xml', form: 'application/x-www-form-urlencoded' };

/**
 * A request URL as written in a step: its path below the base (whatever expression or origin
 * leads it), its query, and a way back from a path segment to the expression it held.
 */
function urlTemplate(url: string): { path: string; query: Record<string, unknown>; restore: (segment: string) => string } {
  const exprs: string[] = [];
  // each expression is kept aside, so that the path can be matched as a plain one
  let text = '';
  for (let i = 0; i < url.length; ) {
    const start = url.indexOf('${', i);
    if (start < 0) {
      text += url.slice(i);
      break;
    }
    text += url.slice(i, start);
    let depth = 0;
    let end = start + 2;
    for (; end < url.length; end++) {
      if (url[end] === '{') depth++;
      else if (url[end] === '}') {
        if (depth === 0) break;
        depth--;
      }
    }
    exprs.push(url.slice(start, end + 1));
    text += `sgexpr${exprs.length - 1}x`;
    i = end + 1;
  }
  // the base: an origin, or an expression before the first slash
  let rest = text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  rest = rest.replace(/^sgexpr\d+x(?=\/|$)/, '');
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const restore = (s: string): string => s.replace(/sgexpr(\d+)x/g, (_m, n: string) => exprs[Number(n)] ?? '');
  const query: Record<string, unknown> = {};
  if (q >= 0)
    for (const pair of rest.slice(q + 1).split('&')) {
      if (!pair) continue;
      const eq = pair.indexOf('=');
      const name = decodeURIComponent(restore(eq < 0 ? pair : pair.slice(0, eq)));
      const value = decodeURIComponent(restore(eq < 0 ? '' : pair.slice(eq + 1)));
      const had = query[name];
      query[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
  return { path: path || '/', query, restore };
}

function requestWords(p: RequestPattern, authHeader: string | undefined): string {
  const parts: string[] = [];
  if (authHeader && p.absent.includes(authHeader)) parts.push('without credentials');
  else if (authHeader && (p.present.includes(authHeader) || p.headers[authHeader] !== undefined)) parts.push('with credentials');
  const names = Object.keys(p.query);
  parts.push(names.length ? `with query ${names.join(', ')}` : 'without query');
  const headers = Object.keys(p.headers).filter((h) => h !== authHeader);
  if (headers.length) parts.push(`with ${headers.join(', ')}`);
  if (p.json !== undefined || p.form !== undefined || p.raw !== undefined) parts.push('with the body it sends');
  const where = Object.keys(p.params).length ? ` (${Object.entries(p.params).map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : '';
  return `${p.operation.method} ${p.operation.id}${where} ${parts.join(', ')}`;
}
