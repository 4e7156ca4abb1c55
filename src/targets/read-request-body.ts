import type { IncomingMessage } from 'node:http';
import { SpecgateError } from '../errors.js';

/**
 * Reads a request body that a played server (a reference implementation, a stand-in) handles,
 * refusing one above `maxBytes`: a client under test that floods its requests must not exhaust
 * specgate's memory. `who` names the server in the error.
 */
export async function readRequestBody(req: IncomingMessage, maxBytes: number, who: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > maxBytes) throw new SpecgateError('SG_TARGET_TOO_LARGE', `request body too large: ${who} reads at most ${maxBytes} bytes; send a smaller body`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A request's headers as a played server reads them: lower-case names, a repeated header's
 * values joined with ", " (as HTTP allows for most of them).
 */
export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
