import { it } from 'vitest';
import { createExecRunner } from '../../../../src/targets/exec-runner.js';
import { fuzzPlugin } from '../../../../suites/plugin/fuzz/fuzz-plugin.js';
const targets: [string, string[]][] = [
  ['/usr/bin/protoc-gen-go', []], ['/usr/bin/protoc-gen-go-grpc', []], ['/usr/bin/grpc_cpp_plugin', []], ['/usr/bin/grpc_python_plugin', []],
  [process.execPath, ['/work/main/dist/reference/plugin/plugin-main.js']],
];
it('scratch', { timeout: 3_000_000 }, async () => {
  for (const [command, args] of targets) {
    const t = Date.now();
    const res = await fuzzPlugin({ target: { vars: {}, exec: { command, args }, runner: createExecRunner() }, runs: Number(process.env.RUNS ?? 300), seed: 2024, concurrency: 2, outDir: '/tmp/peer-fuzz', commandLine: `specgate fuzz plugin --plugin ${command} ${args.join(' ')}`, signal: new AbortController().signal, log: () => undefined });
    console.log(`### ${command} ${args.join(' ')} (${Date.now() - t} ms)\n${res.ok} runs=${res.runs}\n${res.message}\nreplay: ${res.replay}\n${JSON.stringify(res.property?.counterexample)}`);
  }
});
