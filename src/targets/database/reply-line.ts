import { SpecgateError } from '../../errors.js';
import { parseJsonLossless } from '../body-parse.js';
import { protocolError, quoteLine, unaskedLineError, type ProcessNaming } from './document-process-errors.js';

/** Replies must be UTF-8; each line is decoded whole, so one decoder serves every process. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** What a line a database process wrote is: blank (ignored), a reply, or the error that breaks the process. */
export type ReplyLine = { blank: true } | { reply: Record<string, unknown> } | { error: SpecgateError };

/**
 * Reads one line of a database process's stdout (exec-protocol.md) as the reply to `waiting` (the
 * command sent, undefined when none waits): a reply is one JSON object, in UTF-8.
 */
export function readReplyLine(bytes: Buffer, name: string, waiting: Record<string, unknown> | undefined, naming: () => ProcessNaming): ReplyLine {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { error: protocolError(naming(), 'answered a line that is not UTF-8', waiting) };
  }
  if (text.trim() === '') return { blank: true };
  if (!waiting) return { error: unaskedLineError(naming(), text) };
  let reply: unknown;
  try {
    reply = parseJsonLossless(text, `the reply of ${name}`);
  } catch (e) {
    if (e instanceof SpecgateError) return { error: e };
    return { error: protocolError(naming(), `answered a line that is not JSON: ${quoteLine(text)}`, waiting) };
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    return { error: protocolError(naming(), `answered ${quoteLine(text)}, which is not a JSON object`, waiting) };
  }
  return { reply: reply as Record<string, unknown> };
}
