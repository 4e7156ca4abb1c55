/**
 * Every request the reference platform receives, stamped on the platform's clock. A
 * client-side suite plays the platform and judges a client under test from this log
 * (e.g. whether it polls no faster than `interval`, spec 000, B, Endpoints 5).
 */
export interface ObservedRequest {
  seq: number;
  /** Clock time (ms) when the request arrived. */
  at: number;
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Query and body parameters as the endpoint read them. */
  params: Record<string, string>;
  status: number;
  /** The response body as sent (text). */
  response: string;
}

export type ObservationListener = (entry: ObservedRequest) => void;

export class ObservationLog {
  private readonly entries: ObservedRequest[] = [];
  private readonly listeners = new Set<ObservationListener>();
  private seq = 0;

  constructor(private readonly max = 10_000) {}

  record(entry: Omit<ObservedRequest, 'seq'>): ObservedRequest {
    const full = { ...entry, seq: ++this.seq };
    this.entries.push(full);
    if (this.entries.length > this.max) this.entries.shift();
    for (const l of this.listeners) l(full);
    return full;
  }

  /** Entries with a sequence number above `seq` (all by default). */
  since(seq = 0): ObservedRequest[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  /** Entries for one path (e.g. `/login/oauth/access_token`). */
  forPath(path: string): ObservedRequest[] {
    return this.entries.filter((e) => e.path === path);
  }

  get lastSeq(): number {
    return this.seq;
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Calls `listener` for every new entry; returns the unsubscribe function. */
  subscribe(listener: ObservationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
