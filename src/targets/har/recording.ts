/**
 * Recorded HTTP traffic as specgate judges it (`--target har:<file>`): each request/response pair
 * of a HAR 1.2 file, with headers keyed by lower-cased name and the answer's body parsed the way
 * a live answer's is.
 */

/** One recorded request and its answer. */
export interface RecordedExchange {
  /** Position in the file's `log.entries` (0-based), as messages name it. */
  index: number;
  startedDateTime: string;
  method: string;
  /** Absolute URL, query included. */
  url: string;
  /** Lower-cased name -> value; repeated headers joined with ", ". */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when the recording holds no answer (the request failed or was blocked). */
  status: number;
  responseHeaders: Record<string, string | string[]>;
  /** The answer's body as text (base64 content decoded), when the recording kept it. */
  responseText?: string;
  /** The body parsed by its content type (JSON losslessly, form, XML); undefined otherwise. */
  responseBody: unknown;
  /** The content type claims JSON or XML but the body does not parse. */
  parseError?: string;
  /** The recorder kept only the start of the body (`_specgateCut` in the HAR): its shape is not judged. */
  bodyCut?: boolean;
  durationMs: number;
}

/** A loaded recording. */
export interface Recording {
  /** The HAR file, as given. */
  file: string;
  /** `log.creator` as `name version`. */
  creator: string;
  exchanges: RecordedExchange[];
}

/** Request headers whose values never reach a report from a recording (credentials travel in them). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);

/**
 * Whether a header's value is a credential, by its name alone: the well-known ones above, and any
 * name that says key, token, secret, password or session (MON-APPLICATION-KEY, X-Auth-Token,
 * Mcp-Session-Id, ...) — vendors name their credential headers freely, and a report that shows
 * one in clear leaks it.
 */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) || /key|token|secret|password|session/i.test(name);
}
