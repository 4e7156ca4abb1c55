import { it } from 'vitest';
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { createConsoleReporter } from '../../src/reporting/console.js';
import { eventsFor, makeRunResult } from '../fixtures/reporting/run-result.js';
it('dump', async () => {
  const chunks: string[] = [];
  const w = new Writable({ write(c: Buffer, _e, cb) { chunks.push(c.toString()); cb(); } });
  const r = createConsoleReporter({ stream: w, verbose: process.env.V === '1' });
  for (const e of eventsFor(makeRunResult())) r.onEvent(e);
  await r.finish();
  writeFileSync('/tmp/console.txt', chunks.join(''));
});
