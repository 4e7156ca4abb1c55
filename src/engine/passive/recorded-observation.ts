import type { ApiTable } from '../api/table.js';
import type { Exchange } from '../model.js';
import { bodyPreview, type Observation } from '../runtime/observation.js';
import { bodyKind } from '../../targets/body-parse.js';
import { isCredentialHeader, type RecordedExchange } from '../../targets/har/recording.js';
import type { MatchedExchange } from './match-recording.js';

/** A recording run is given no secrets: its credentials are masked by header name (see toExchange). */
const knowsNoSecrets = (text: string): string => text;

/** A recorded exchange as reports show it, credentials masked (a recording is full of them). */
export function toExchange(x: Pick<MatchedExchange, 'recorded'>, table: ApiTable | undefined): Exchange {
  const r: RecordedExchange = x.recorded;
  // a recording run has no vars to say which headers are secret: they are masked by name
  const authHeader = table?.auth?.header.toLowerCase();
  const secretName = (k: string): boolean => k.toLowerCase() === authHeader || isCredentialHeader(k);
  const mask = <V>(h: Record<string, V>): Record<string, V | string> => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, secretName(k) ? '***' : v]));
  return {
    kind: 'http',
    summary: `${r.method} ${r.url} -> ${r.status} (recorded, entry ${r.index}${r.responseCut ? `; answer body of ${r.responseCut.size} bytes kept cut` : ""})`,
    request: { method: r.method, url: r.url, headers: mask(r.requestHeaders), body: bodyPreview(r.requestBody, knowsNoSecrets) },
    response: { status: r.status, headers: mask(r.responseHeaders), body: bodyPreview(r.responseText, knowsNoSecrets) },
    durationMs: r.durationMs,
  };
}

/**
 * A recorded answer as a live step observes one, so that expectations and captures read it with
 * the engine's own code (runtime/observation.ts).
 */
export function recordedObservation(x: MatchedExchange, table?: ApiTable): Observation {
  const r = x.recorded;
  const accept = r.requestHeaders['accept'];
  const asked = accept === undefined ? undefined : bodyKind(accept.split(',')[0] ?? accept);
  let path = r.url;
  try {
    path = new URL(r.url, 'http://relative.invalid').pathname;
  } catch {
    path = r.url;
  }
  return {
    status: r.status,
    headers: r.responseHeaders,
    body: r.responseBody,
    ...(r.responseText !== undefined ? { bodyText: r.responseText } : {}),
    data: r.responseBody,
    ...(r.parseError !== undefined ? { parseError: r.parseError } : {}),
    ...(asked ? { asked } : {}),
    label: `${r.method} ${path} (recorded, entry ${r.index})`,
    exchange: () => toExchange(x, table),
  };
}
