import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { encodeResponse } from '../../../../reference/plugin/codec.js';
import { Rules, type RulePair } from '../../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest } from '../../../../reference/plugin/types.js';
import { SpecgateError } from '../../../../src/errors.js';
import type { ExecResult } from '../../../../src/targets/types.js';
import { FUZZ_JUDGES, fuzzRequest } from '../../../../suites/plugin/checks/fuzz-request.js';
import { judgeRun, judgeRunnerError } from '../../../../suites/plugin/fuzz/judge-run.js';
import { regressionCaseYaml } from '../../../../suites/plugin/fuzz/regression-case.js';

const request: CodeGeneratorRequest = { file_to_generate: ['a.proto'], proto_file: [{ name: 'a.proto', syntax: 'proto3' }] };

function result(over: Partial<ExecResult>): ExecResult {
  return { exitCode: 0, signal: null, stdout: new Uint8Array(0), stderr: '', durationMs: 1, ...over };
}

describe('plugin.fuzzRequest: the contract', () => {
  it('judges every plugin-side rule the reference model names', () => {
    const pluginRules = (Object.values(Rules) as RulePair[]).flatMap((pair) => (pair.plugin ? [pair.plugin] : []));
    expect(pluginRules.length).toBeGreaterThan(0);
    for (const id of pluginRules) expect(FUZZ_JUDGES).toContain(id);
    expect(fuzzRequest.judges).toBe(FUZZ_JUDGES);
  });

  it('judges every requirement the fuzzer names for a crash, an exit, undecodable bytes, a timeout and a cap', () => {
    const named = [
      judgeRun(request, result({ exitCode: null, signal: 'SIGSEGV' })),
      judgeRun(request, result({ exitCode: 3 })),
      judgeRun(request, result({ stdout: Uint8Array.from([0x0a, 0xff]) })),
      judgeRun(request, result({ stdout: encodeResponse({ file: [{ name: '../a.txt', content: 'x' }] }) })),
      { finding: judgeRunnerError(new SpecgateError('SG_TARGET_TIMEOUT', 'slow')) },
      { finding: judgeRunnerError(new SpecgateError('SG_TARGET_TOO_LARGE', 'big')) },
    ].map((v) => ('finding' in v ? v.finding.requirement : 'no finding'));
    expect(new Set(named)).toEqual(new Set(['PLUGIN-IO-ONE-RESPONSE', 'PLUGIN-ERROR-EXIT-ZERO', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS']));
    for (const id of named) expect(FUZZ_JUDGES).toContain(id);
  });

  it('takes exactly one argument, the request', () => {
    expect(fuzzRequest.args).toMatchObject({ type: 'object', required: ['request'], additionalProperties: false });
  });
});

describe('the regression case a fuzz finding is written as', () => {
  it('is one case naming the broken requirement, the seed and the replay, with the exact request', () => {
    const text = regressionCaseYaml({
      seed: 42,
      request,
      finding: { requirement: 'PLUGIN-ERROR-EXIT-ZERO', kind: 'exit', message: 'exit 3' },
      replay: 'specgate fuzz plugin --plugin p --seed 42 --path 1:0 --runs 1',
    });
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../../schemas/cases.schema.json');
    const items = parse(text) as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: 'fuzz-42',
      suite: 'plugin',
      requirements: ['PLUGIN-ERROR-EXIT-ZERO'],
      needs: ['plugin_command'],
      steps: [{ check: 'plugin.fuzzRequest', with: { request } }],
    });
    expect(items[0]?.['description']).toContain('seed 42');
    expect(items[0]?.['description']).toContain('specgate fuzz plugin --plugin p --seed 42 --path 1:0 --runs 1');
  });
});
