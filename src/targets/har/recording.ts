/**
 * Recorded HTTP traffic as specgate judges it (`--target har:<file>`): each request/response pair
 * of a HAR 1.2 file, with headers keyed by lower-cased name and the answer's body parsed the way
 * a live answer's is.
 */

/** One recorded request and its answer. */
export interface RecordedExchange {
  /** Position in the file's `log.entries` (0-based), as messages name it. */
  index: number;
  /** When the request started, as recorded (ISO 8601); the answer's own `Date` header, when recorded, is in responseHeaders.date. */
  startedDateTime: string;
  method: string;
  /** Absolute URL, query included. */
  url: string;
  /** Lower-cased name -> value; repeated headers joined with ", ". */
  requestHeaders: Record<string, string>;
  /** The request's body as text: base64 decoded, or rebuilt from `postData.params` when the recorder wrote no text. */
  requestBody?: string;
  /** Set when requestBody is only the beginning of the recorded body: the whole body's length in bytes. */
  requestCut?: number;
  /** 0 when the recording holds no answer (the request failed or was blocked). */
  status: number;
  responseHeaders: Record<string, string | string[]>;
  /** The answer's body as text (base64 content decoded), when the recording kept it. */
  responseText?: string;
  /**
   * Set when responseText is only the beginning of the recorded body (it was over the cap,
   * load-har.ts HAR_CAPS): the whole body's length in bytes, and whether it is of a type specgate
   * parses — such a body was not parsed, and a rule that reads the body does not judge it.
   */
  responseCut?: { size: number; parsable: boolean };
  /** The body parsed by its content type (JSON losslessly, form, XML); undefined otherwise. */
  responseBody: unknown;
  /** The content type claims JSON or XML but the body does not parse. */
  parseError?: string;
  /** Total milliseconds, as recorded; 0 when the recorder did not time it (-1). */
  durationMs: number;
}

/** An entry of the file that is left out, or a problem of the file after its entries. */
export interface RecordingProblem {
  /** The entry's position in `log.entries`; absent for the file's own problems. */
  index?: number;
  /** `file:line:column: entry 3: what is wrong; what to do`. */
  message: string;
}

/** A loaded recording. */
export interface Recording {
  /** The HAR file, as given. */
  file: string;
  /** `log.creator` as `name version`. */
  creator: string;
  /** How many items `log.entries` holds (or held, up to where the file breaks). */
  entries: number;
  /** The entries read; the others are in problems. */
  exchanges: RecordedExchange[];
  /** Entries left out (not JSON, not HAR 1.2, too deep, too large, cut short) and problems of the file's end. */
  problems: RecordingProblem[];
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
