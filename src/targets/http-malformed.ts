/**
 * What was wrong with an answer undici's HTTP/1.1 parser refused, in words a target's author
 * can act on (RFC 9112: section 4 the status line, section 5 header fields, section 6 the body,
 * section 7.1 chunked coding), followed by the bytes where parsing stopped.
 */

/** llhttp's reasons (the text in parentheses of undici's message), most specific first. */
const REASONS: [RegExp, string][] = [
  [/Expected HTTP\/|RTSP|ICE|Invalid method|Expected SOURCE/i, 'it does not start with a status line ("HTTP/1.1 <3-digit status> <reason>")'],
  [/version|Expected dot/i, 'the status line carries no valid HTTP version'],
  [/status/i, 'the status line carries no valid 3-digit status code'],
  [/Content-Length/i, 'the Content-Length header is not one valid number'],
  [/header value char/i, 'a header value holds a control character'],
  [/header token|header field/i, 'a header name holds a character a header name cannot have (a control character or space), or a header line has no colon'],
  [/Transfer-Encoding/i, 'the Transfer-Encoding header is malformed'],
  [/chunk/i, 'the chunked body is malformed'],
  [/Missing expected (CR|LF)|Expected LF|Expected CRLF/i, 'a line does not end with CRLF'],
  [/EOF/i, 'the connection ended in the middle of the answer'],
];

/** Longest excerpt of the offending bytes shown. */
const NEAR = 40;

/** One sentence: what is malformed, then where parsing stopped (escaped, so control bytes are visible). */
export function describeParserError(e: unknown, redact: (s: string) => string): string {
  const message = e instanceof Error ? e.message : String(e);
  const reason = /\((.*)\)\s*$/.exec(message)?.[1] ?? message;
  const what = REASONS.find(([re]) => re.test(reason))?.[1];
  const data = typeof e === 'object' && e !== null ? (e as { data?: unknown }).data : undefined;
  const near = typeof data === 'string' && data !== '' ? `; parsing stopped at ${JSON.stringify(redact(data.slice(0, NEAR)))}${data.length > NEAR ? '...' : ''}` : '';
  return `${what ?? 'it breaks the HTTP/1.1 message syntax'} (${reason})${near}`;
}
