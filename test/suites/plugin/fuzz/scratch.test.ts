import { it } from 'vitest';
import { createExecRunner } from '../../../../src/targets/exec-runner.js';
import { fuzzPlugin } from '../../../../suites/plugin/fuzz/fuzz-plugin.js';
const targets = ['/usr/bin/protoc-gen-go', '/usr/bin/protoc-gen-go-grpc', '/usr/bin/grpc_cpp_plugin', '/usr/bin/grpc_python_plugin', '/usr/bin/grpc_ruby_plugin', '/usr/bin/grpc_php_plugin'];
it('scratch', { timeout: 6_000_000 }, async () => {
  for (const command of targets) {
    const t = Date.now();
    const res = await fuzzPlugin({ target: { vars: { fuzz_go_package: true }, exec: { command }, runner: createExecRunner() }, runs: Number(process.env.RUNS ?? 1500), seed: 777, concurrency: 2, outDir: '/tmp/peer-fuzz', commandLine: `specgate fuzz plugin --plugin ${command}`, signal: new AbortController().signal, log: () => undefined });
    console.log(`### ${command} (${Date.now() - t} ms)\n${res.ok} runs=${res.runs}\n${res.message}\nreplay: ${res.replay}\n${JSON.stringify(res.property?.counterexample)}`);
  }
});
