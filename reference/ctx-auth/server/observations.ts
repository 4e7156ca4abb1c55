/**
 * Every request the reference server receives, in arrival order, stamped on its clock. The
 * client-side cases judge a client under test from this log (what it asked, in which order,
 * with which headers and bodies), so nothing in it is parsed or cut: bodies are kept as text.
 */
export interface CtxObservation {
  seq: number;
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string[]>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The request body as text ('' when none). */
  body: string;
  status: number;
  /** Clock time (ms) when the request arrived. */
  at: number;
  /** What the server answered, as text (the token issued, the Location of a redirect, ...). */
  responseBody: string;
  /** The answer's headers, lower-cased names. */
  responseHeaders: Record<string, string>;
}

/** A request noted on arrival and completed when answered, so order is arrival order. */
export class ObservationLog {
  private readonly entries: CtxObservation[] = [];
  private readonly done = new WeakSet<CtxObservation>();
  private seq = 0;

  constructor(private readonly max = 10_000) {}

  /** Notes an arriving request; the returned entry is completed with `complete`. */
  arrive(what: Pick<CtxObservation, 'method' | 'path' | 'query' | 'headers' | 'at'>): CtxObservation {
    const entry: CtxObservation = { ...what, seq: ++this.seq, body: '', status: 0, responseBody: '', responseHeaders: {} };
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.shift();
    return entry;
  }

  complete(entry: CtxObservation, result: Pick<CtxObservation, 'body' | 'status' | 'responseBody' | 'responseHeaders'>): void {
    Object.assign(entry, result);
    this.done.add(entry);
  }

  /** Answered requests in arrival order (copies), optionally only those after `since`. */
  list(since = 0): CtxObservation[] {
    return this.entries.filter((e) => e.seq > since && this.done.has(e)).map((e) => ({ ...e, query: { ...e.query }, headers: { ...e.headers }, responseHeaders: { ...e.responseHeaders } }));
  }
}
