import { expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import { suite } from '../../../suites/oauth/index.js';

/**
 * The client side of the oauth suite, in-process, against the reference application (the one
 * the suite's reference names): every client requirement is judged on something the application
 * sent and passes; none passes on nothing (a rule with no input is untested, and fails this).
 */
it('passes every client requirement with the reference application, judged in-process', async () => {
  const r = await run({ modules: [suite], suites: ['oauth'], targets: {}, sides: { oauth: 'client' }, seed: 7 });
  const cli = r.requirements.filter((v) => v.id.startsWith('OAUTH-CLIENT-') && v.status !== 'excluded');
  const cases = r.suites.flatMap((s) => s.cases).filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => f.message).join('|')}`);
  expect(cli.filter((v) => v.status !== 'passed').map((v) => `${v.id}: ${v.status} ${v.reason ?? ''}`), cases.join('\n')).toEqual([]);
}, 600_000);
