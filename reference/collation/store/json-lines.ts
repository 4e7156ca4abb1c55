import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Store } from './store.js';

/**
 * Serves a store over the JSON-lines protocol of `exec:` database targets
 * (src/targets/database/exec-protocol.md): one command object per line in, one reply object per
 * line out, in order. A line that is not a JSON object is answered with a FailedToParse refusal,
 * so the other side always gets one reply per line. Ends when the input ends.
 */
export async function serveJsonLines(store: Store, input: Readable, output: Writable): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let reply: Record<string, unknown>;
    try {
      const doc: unknown = JSON.parse(line);
      reply =
        typeof doc === 'object' && doc !== null && !Array.isArray(doc)
          ? store.command(doc as Record<string, unknown>)
          : { ok: 0, code: 9, codeName: 'FailedToParse', errmsg: 'a command is a JSON object whose first key names it, e.g. {"find": "people"}' };
    } catch {
      reply = { ok: 0, code: 9, codeName: 'FailedToParse', errmsg: 'the line is not JSON: send one command object per line' };
    }
    if (!output.write(`${JSON.stringify(reply)}\n`)) await new Promise((resolve) => output.once('drain', resolve));
  }
}
