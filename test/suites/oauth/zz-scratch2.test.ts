import { it } from 'vitest';
import { FAULTS } from '../../fixtures/oauth/faults/faults.js';
import { runOAuth, story } from './run-target.js';
it('scratch', async () => {
  const f = FAULTS[process.env.F ?? ''];
  const r = await runOAuth({ fault: f, cases: (process.env.C ?? '').split(',') });
  console.log(story(r));
  console.log(JSON.stringify(r.requirements.filter((v) => v.status !== 'untested' || true).map((v) => [v.id, v.status, v.blockedBy, (v as {evidence?: number}).evidence])));
  for (const c of r.suites.flatMap((s) => s.cases)) console.log(c.id, JSON.stringify(c.failures.map(f=>[f.requirement,f.message, f.actual])));
}, 300_000);
