import { expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import { suite } from '../../../suites/ctx-auth/index.js';

/**
 * The client side of the ctx-auth suite, in-process, against the reference client (the compiled
 * one under dist/, which the suite's reference names): every client requirement is judged and
 * passes, with evidence, and the run is conformant. client-run.test.ts does the same through the
 * command line.
 */
it('passes every client requirement with the reference client, judged in-process', async () => {
  const r = await run({ modules: [suite], suites: ['ctx-auth'], targets: {}, sides: { 'ctx-auth': 'client' }, seed: 7 });
  const cli = r.requirements.filter((v) => v.id.startsWith('CTX-CLI-') && v.status !== 'excluded');
  const cases = r.suites.flatMap((s) => s.cases).filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => f.message).join('|')}`);
  expect(cli.filter((v) => v.status !== 'passed').map((v) => `${v.id}: ${v.status} ${v.reason ?? ''}`), cases.join('\n')).toEqual([]);
  expect(r.summary.exitCode).toBe(0);
}, 300_000);
