import { describe, expect, it } from 'vitest';
import { encodeResponse } from '../../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest } from '../../../../reference/plugin/types.js';
import { SpecgateError } from '../../../../src/errors.js';
import type { ExecResult } from '../../../../src/targets/types.js';
import { judgeAnswer, judgeRun, judgeRunnerError } from '../../../../suites/plugin/fuzz/judge-run.js';
import { lengthDelimited } from '../../../../reference/plugin/wire.js';

const request: CodeGeneratorRequest = {
  file_to_generate: ['a.proto'],
  proto_file: [{ name: 'a.proto', syntax: 'proto3', messageType: [{ name: 'A', field: [{ name: 'x', number: 1, label: 1, type: 5, jsonName: 'x', proto3Optional: true, oneofIndex: 0 }], oneofDecl: [{ name: '_x' }] }] }],
};

function result(over: Partial<ExecResult>): ExecResult {
  return { exitCode: 0, signal: null, stdout: new Uint8Array(0), stderr: '', durationMs: 1, ...over };
}

describe('judging one plugin run on a valid request', () => {
  it('accepts a conformant answer, and an answer that sets error', () => {
    const ok = judgeRun(request, result({ stdout: encodeResponse({ supported_features: 1, file: [{ name: 'a.txt', content: 'x' }] }) }));
    expect(ok).toEqual({ answer: { response: { supported_features: 1, file: [{ name: 'a.txt', content: 'x' }] }, errored: false, expected: [] } });
    const errored = judgeRun(request, result({ stdout: encodeResponse({ error: 'a.proto: unsupported' }) }));
    expect('answer' in errored && errored.answer.errored).toBe(true);
  });

  it('names the requirement for a crash, a non-zero exit and undecodable bytes', () => {
    expect(judgeRun(request, result({ exitCode: null, signal: 'SIGSEGV' }))).toMatchObject({ finding: { requirement: 'PLUGIN-IO-ONE-RESPONSE', kind: 'crash' } });
    expect(judgeRun(request, result({ exitCode: 2, stderr: 'boom' }))).toMatchObject({ finding: { requirement: 'PLUGIN-ERROR-EXIT-ZERO', kind: 'exit', stderr: 'boom' } });
    expect(judgeRun(request, result({ stdout: Uint8Array.from([0x0a, 0xff]) }))).toMatchObject({ finding: { requirement: 'PLUGIN-IO-ONE-RESPONSE', kind: 'undecodable' } });
  });

  it('names the rule a response breaks, from the reference model', () => {
    const bad = judgeRun(request, result({ stdout: encodeResponse({ supported_features: 1, file: [{ name: '../a.txt', content: 'x' }] }) }));
    expect(bad).toMatchObject({ finding: { requirement: 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', kind: 'rule' } });
    const noFeature = judgeRun(request, result({ stdout: encodeResponse({ file: [{ name: 'a.txt', content: 'x' }] }) }));
    expect(noFeature).toMatchObject({ finding: { requirement: 'PLUGIN-FEATURE-PROTO3-OPTIONAL' } });
  });

  it('leaves out violations the baseline expects, and still finds another rule the same response breaks', () => {
    const expected = new Set(['PLUGIN-FILE-NAME-NO-DOT-COMPONENTS']);
    const onlyExpected = judgeRun(request, result({ stdout: encodeResponse({ supported_features: 1, file: [{ name: '../a.txt', content: 'x' }] }) }), expected);
    expect(onlyExpected).toMatchObject({ answer: { errored: false, expected: ['PLUGIN-FILE-NAME-NO-DOT-COMPONENTS'] } });
    const both = judgeRun(request, result({ stdout: encodeResponse({ file: [{ name: '../a.txt', content: 'x' }] }) }), expected);
    expect(both).toMatchObject({ finding: { requirement: 'PLUGIN-FEATURE-PROTO3-OPTIONAL', kind: 'rule' } });
  });

  it('counts a timeout as the plugin\'s fault and rethrows harness faults', () => {
    expect(judgeRunnerError(new SpecgateError('SG_TARGET_TIMEOUT', 'slow', { stderr: 'partial' }))).toMatchObject({ requirement: 'PLUGIN-IO-ONE-RESPONSE', kind: 'timeout', stderr: 'partial' });
    const unreachable = new SpecgateError('SG_TARGET_UNREACHABLE', 'no such file');
    expect(() => judgeRunnerError(unreachable)).toThrow(unreachable);
  });
});

describe('judging every rule of one answer at once (judgeAnswer)', () => {
  const marked = { supported_features: 1, file: [{ name: 'a.txt', content: '// @@mycc_insertion_point(top)\n' }, { name: 'a.txt', insertion_point: 'top', content: 'x\n' }] };

  it('judges insertion markers with the given prefix, and the model\'s default without one', () => {
    const stdout = encodeResponse(marked);
    expect(judgeAnswer(request, result({ stdout }), { markerPrefix: '@@mycc_insertion_point' }).findings).toEqual([]);
    expect(judgeAnswer(request, result({ stdout })).findings.map((f) => f.requirement)).toEqual(['PLUGIN-INSERTION-POINT-MARKED']);
  });

  it('judges fields under tags the schema lacks only when asked (the regression case check does not list that requirement)', () => {
    const stdout = Buffer.concat([encodeResponse({ supported_features: 1, file: [{ name: 'a.txt', content: 'x' }] }), lengthDelimited(9, Buffer.from('lost'))]);
    expect(judgeAnswer(request, result({ stdout })).findings).toEqual([]);
    const [tags] = judgeAnswer(request, result({ stdout }), { schemaTags: true }).findings;
    expect(tags).toMatchObject({ requirement: 'PLUGIN-RESPONSE-SCHEMA-TAGS', kind: 'rule' });
    expect(tags?.message).toContain('CodeGeneratorResponse field 9');
  });

  it('gives one finding per rule, counting the rest of that rule', () => {
    const stdout = encodeResponse({ supported_features: 1, file: [{ name: '../a.txt', content: 'x' }, { name: '../b.txt', content: 'y' }] });
    const { findings } = judgeAnswer(request, result({ stdout }));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('(and 1 more of this rule in the same response)');
  });
});
