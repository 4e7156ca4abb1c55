/**
 * The points where a client of the events services decides something the spec rules on. The
 * reference client takes the spec's choice at each; a variant (a planted fault) changes one.
 */
export interface EventsClientBehaviour {
  /** The headers of a monitoring request (keys included), for the operation it calls. */
  monHeaders(keys: { apiKey: string; appKey: string }, operation: 'deps' | 'post' | 'v1' | 'v2'): Record<string, string>;
  /** The query of a dependency request (the map, or one service's neighbours). */
  dependencyQuery(): URLSearchParams;
  /** The body of the posted event, dated `nowSeconds`. */
  postBody(nowSeconds: number): Record<string, unknown>;
  /** The headers of a platform request (token, accept, version). */
  platformHeaders(token: string): Record<string, string>;
  /** The `per_page` of a platform poll, or undefined to send none. */
  perPage(): number | undefined;
  /** The If-None-Match to send after a 200 with `etag`, or undefined to send none. */
  ifNoneMatch(etag: string): string | undefined;
  /** Milliseconds to wait before polling again, after an answer with X-Poll-Interval `seconds`. */
  pollWaitMs(seconds: number, firstSeconds: number): number;
  /** The query of the next v2 page, given the first page's query and the cursor. */
  v2Next(first: URLSearchParams, cursor: string): URLSearchParams;
  /** The query of the next v1 page, given this page's query and its last event's date_happened. */
  v1Next(current: URLSearchParams, lastTimestamp: number): URLSearchParams;
}

export const REFERENCE_BEHAVIOUR: EventsClientBehaviour = {
  monHeaders: ({ apiKey, appKey }) => ({ 'MON-API-KEY': apiKey, 'MON-APPLICATION-KEY': appKey }),
  // `env` is required on both dependency endpoints (G, Endpoints); the client reads its own environment
  dependencyQuery: () => new URLSearchParams({ env: 'prod' }),
  postBody: (now) => ({ title: 'Deployed widget 1.4.2', text: 'Rolled out to every region.', date_happened: now, tags: ['service:widget'], alert_type: 'info' }),
  platformHeaders: (token) => ({ authorization: `Bearer ${token}`, accept: 'application/vnd.platform+json', 'X-Platform-Api-Version': '2022-11-28' }),
  // the largest page the platform gives (H, Limits: per_page maximum 100)
  perPage: () => 100,
  // the ETag is sent back as the service wrote it, quotes and all (H, Polling rules)
  ifNoneMatch: (etag) => etag,
  pollWaitMs: (seconds) => seconds * 1000,
  v2Next: (first, cursor) => {
    const q = new URLSearchParams(first);
    q.set('page[cursor]', cursor);
    return q;
  },
  v1Next: (current, last) => {
    const q = new URLSearchParams(current);
    q.set('end', String(last));
    return q;
  },
};
