import * as fc from 'fast-check';
import { it } from 'vitest';
import { createExecRunner } from '../../../src/targets/exec-runner.js';
import { runCompiler } from '../../../suites/plugin/checks/compiler-harness.js';
import { expectedOutcome, judgeCompiler } from '../../../suites/plugin/checks/compiler-verdict.js';
import { generatedInvocations } from '../../../suites/plugin/checks/invocations.js';
const runner = createExecRunner();
it('print', async () => {
  const d = await fc.check(fc.asyncProperty(generatedInvocations(), async (gen) => {
    const inv = { compiler: ['protoc'], generators: gen.generators, descriptorSet: { file: gen.request.proto_file ?? [] }, files: gen.request.file_to_generate ?? [] };
    const out = await runCompiler(runner, inv);
    const e = expectedOutcome(inv, out.sandbox);
    const f = judgeCompiler(e, out, 'X');
    if (f.length && !(f[0]?.requirement.startsWith('PLUGIN-COMPILER-NAME'))) throw new Error(JSON.stringify(f));
  }), { numRuns: 60, seed: 20240611 });
  console.log(JSON.stringify(d.counterexample?.[0]?.generators, null, 1), d.errorInstance instanceof Error ? d.errorInstance.message : '');
}, 600000);
