import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { FAULTS } from '../../fixtures/oauth/faults/faults.js';
import { runOAuth } from './run-target.js';

const OUT = process.env['SNAP_OUT'] ?? '/tmp/h4/snap.json';

it('snapshots verdicts', async () => {
  const out: Record<string, unknown> = {};
  const runs: Array<[string, Parameters<typeof runOAuth>[0]]> = [['reference', {}], ...Object.entries(FAULTS).map(([n, fault]) => [n, { fault }] as [string, Parameters<typeof runOAuth>[0]])];
  for (const [name, opts] of runs) {
    const r = await runOAuth(opts);
    out[name] = {
      requirements: Object.fromEntries(r.requirements.map((v) => [v.id, v.status])),
      cases: Object.fromEntries(r.suites.flatMap((s) => s.cases.map((c) => [c.id, c.outcome + (c.outcome === 'errored' ? ` ${c.errorCode ?? ''}` : '')]))),
    };
  }
  writeFileSync(OUT, JSON.stringify(out, null, 1));
}, 3_600_000);
