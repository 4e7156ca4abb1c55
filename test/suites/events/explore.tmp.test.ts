import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { FAULTS } from '../../fixtures/events/faults/faults.js';
import { erroredCases, failedRequirements, runEvents } from './run-events.js';

it('explore', async () => {
  const out: string[] = [];
  const r0 = await runEvents();
  out.push(`REFERENCE failed=${failedRequirements(r0).join(',')} errored=${erroredCases(r0).join(' | ')}`);
  for (const [name, f] of Object.entries(FAULTS)) {
    const r = await runEvents({ options: f.options });
    out.push(`${name} want=${f.requirement} cascade=${(f.cascade ?? []).join(',')} failed=${failedRequirements(r).join(',')} errored=${erroredCases(r).join(' | ')}`);
  }
  writeFileSync('/tmp/explore-events.txt', out.join('\n') + '\n');
}, 900_000);
