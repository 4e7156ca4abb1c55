import { resolveDeep } from '../expressions.js';
import { capture } from '../runtime/observation.js';
import type { RecordedExchange } from '../../targets/har/recording.js';
import { interleavedWrite, type InterleavedWrite } from './interleaved-writes.js';
import type { MatchedExchange } from './match-recording.js';
import type { RequestPattern, StepPattern } from './request-pattern.js';
import { recordedObservation } from './recorded-observation.js';
import { fitText, fitValue, type Bindings } from './value-pattern.js';

/** The recorded exchanges that stand for a case's request steps, in order, and the variables they bound. */
export interface MatchedSequence {
  /** Step index -> its exchange. */
  exchanges: Map<number, MatchedExchange>;
  /** Step index -> the variables known when its answer is judged (its captures not yet read). */
  varsAt: Map<number, Bindings>;
}

/** How many partial sequences one search may try before it gives up (a recording of many alike requests). */
const SEARCH_BUDGET = 200_000;

/**
 * The variables after a recorded exchange is read as the request a step would send, or
 * undefined when it is not that request: same operation, path parameters, exactly the query
 * names the step sends with fitting values, the headers the step sets, the credentials and
 * conditions it sends or not, and the body fields it gives.
 */
export function fitExchange(p: RequestPattern, x: MatchedExchange, vars: Bindings): Bindings | undefined {
  const v = fitHead(p, x, vars);
  return v && fitBody(p, x.recorded.requestBody, v, x.recorded.requestCut !== undefined);
}

/** The variables after everything of the request but its body is read as the step's (operation, path, query, headers). */
function fitHead(p: RequestPattern, x: MatchedExchange, vars: Bindings): Bindings | undefined {
  if (x.operation.id !== p.operation.id) return undefined;
  let v: Bindings | undefined = vars;
  for (const [name, template] of Object.entries(p.params)) {
    const actual = x.params[name];
    v = actual === undefined ? undefined : fitText(template, actual, v);
    if (!v) return undefined;
  }
  const recorded = recordedQuery(x.recorded.url);
  if (!recorded) return undefined;
  const names = Object.keys(p.query);
  if (names.length !== recorded.size || names.some((n) => !recorded.has(n))) return undefined;
  for (const name of names) {
    const template = p.query[name];
    const values = recorded.get(name) as string[];
    const list = Array.isArray(template) ? template : [template];
    if (list.length !== values.length) return undefined;
    for (let i = 0; i < list.length && v; i++) v = fitText(list[i], values[i] as string, v);
    if (!v) return undefined;
  }
  const h = x.recorded.requestHeaders;
  for (const name of p.present) if (h[name] === undefined) return undefined;
  for (const name of p.absent) if (h[name] !== undefined) return undefined;
  for (const [name, template] of Object.entries(p.headers)) {
    const actual = h[name];
    v = actual === undefined ? undefined : fitText(template, actual, v);
    if (!v) return undefined;
  }
  return v;
}

/**
 * The recorded exchanges that would be the step's request but for a body the recording kept cut
 * (over its body cap): all else fits, and the step sends a body, whose fields a cut one cannot show.
 */
export function cutStandIns(p: RequestPattern, candidates: readonly MatchedExchange[], vars: Bindings): MatchedExchange[] {
  if (p.raw === undefined && p.json === undefined && p.form === undefined) return [];
  return candidates.filter((x) => x.recorded.requestCut !== undefined && fitHead(p, x, vars) !== undefined);
}

function fitBody(p: RequestPattern, body: string | undefined, vars: Bindings, cut: boolean): Bindings | undefined {
  // only the beginning of a cut body was kept: it cannot show the fields a step sends
  if (cut && (p.raw !== undefined || p.json !== undefined || p.form !== undefined)) return undefined;
  if (p.raw !== undefined) return fitText(p.raw, body ?? '', vars);
  if (p.json !== undefined) {
    if (body === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
    return fitValue(p.json, parsed, vars);
  }
  if (p.form !== undefined) {
    const fields = new URLSearchParams(body ?? '');
    let v: Bindings | undefined = vars;
    for (const [name, template] of Object.entries(p.form)) {
      if (template === undefined || template === null) continue;
      const values = fields.getAll(name);
      const list = Array.isArray(template) ? template : [template];
      if (values.length !== list.length) return undefined;
      for (let i = 0; i < list.length && v; i++) v = fitText(list[i], values[i] as string, v);
      if (!v) return undefined;
    }
    return v;
  }
  return vars;
}

/** Query name -> its values in order; undefined for a URL that does not parse. */
function recordedQuery(url: string): Map<string, string[]> | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return undefined;
  }
  const out = new Map<string, string[]>();
  for (const [k, v] of parsed.searchParams) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

/** The variables a `set:` step assigns, those whose inputs are known (the others stay unknown, to be bound by what follows). */
function assigned(values: Record<string, unknown>, vars: Bindings): Bindings {
  const out: Record<string, unknown> = { ...vars };
  for (const [k, template] of Object.entries(values)) {
    try {
      out[k] = resolveDeep(template, { vars: { ...vars } });
    } catch {
      // it reads a value of the target profile, unknown here: the recording binds it where it is used
    }
  }
  return out;
}

/** The variables after a step's captures are read from its recorded answer. */
function captured(p: RequestPattern, x: MatchedExchange, vars: Bindings): Bindings {
  if (!p.capture) return vars;
  const out: Record<string, unknown> = { ...vars };
  capture(recordedObservation(x), p.capture, out, (n) => n);
  return out;
}

/**
 * What a search keeps to when the recording is at hand: a sequence is kept only if no other
 * recorded write falls between its steps on an item they address (interleaved-writes.ts).
 * `rejected` is the first sequence passed over, for the reason a case stays untested.
 */
export interface WriteGuard {
  recorded: readonly RecordedExchange[];
  rejected?: InterleavedWrite;
}

/**
 * Every sequence of recorded exchanges that stands for the case's steps: strictly increasing
 * entries with consistent variables, each search the earliest that fits, the next one starting
 * after the last exchange of the one before (so no two overlap). `candidates` gives, per
 * operation, its exchanges in recording order. A case of one request is every exchange that
 * fits it. With `guard`, a sequence with another write between its steps on an item they
 * address is passed over, and the search goes on to the next one that fits.
 */
export function findSequences(patterns: readonly StepPattern[], candidates: (operation: string) => readonly MatchedExchange[], initial: Bindings, guard?: WriteGuard): MatchedSequence[] {
  const out: MatchedSequence[] = [];
  const requests = patterns.filter((p): p is RequestPattern => p.kind === 'request');
  let after = -1;
  for (;;) {
    const state: SearchState = { budget: SEARCH_BUDGET, chosen: new Map(), varsAt: new Map(), requests, candidates, ...(guard ? { guard } : {}) };
    const found = search(patterns, 0, after, initial, state);
    if (!found) return out;
    out.push(found);
    const last = Math.max(...[...found.exchanges.values()].map((x) => x.recorded.index));
    if (!Number.isFinite(last)) return out;
    after = last;
  }
}

interface SearchState {
  budget: number;
  chosen: Map<number, MatchedExchange>;
  varsAt: Map<number, Bindings>;
  requests: readonly RequestPattern[];
  candidates: (operation: string) => readonly MatchedExchange[];
  guard?: WriteGuard;
}

function search(patterns: readonly StepPattern[], k: number, after: number, vars: Bindings, st: SearchState): MatchedSequence | undefined {
  if (k === patterns.length) {
    if (st.guard) {
      const w = interleavedWrite(st.requests, st.chosen, st.guard.recorded);
      if (w) {
        st.guard.rejected ??= w;
        return undefined;
      }
    }
    return { exchanges: new Map(st.chosen), varsAt: new Map(st.varsAt) };
  }
  const p = patterns[k] as StepPattern;
  if (p.kind === 'set') return search(patterns, k + 1, after, assigned(p.values, vars), st);
  for (const x of st.candidates(p.operation.id)) {
    if (x.recorded.index <= after) continue;
    if (--st.budget < 0) return undefined;
    const fitted = fitExchange(p, x, vars);
    if (!fitted) continue;
    st.chosen.set(p.step, x);
    st.varsAt.set(p.step, fitted);
    const rest = search(patterns, k + 1, x.recorded.index, captured(p, x, fitted), st);
    if (rest) return rest;
    st.chosen.delete(p.step);
    st.varsAt.delete(p.step);
  }
  return undefined;
}

/** Whether some recorded exchange fits one step on its own (for saying what a recording lacks). */
export function anyFits(p: RequestPattern, candidates: readonly MatchedExchange[], vars: Bindings): boolean {
  return candidates.some((x) => fitExchange(p, x, vars) !== undefined);
}

