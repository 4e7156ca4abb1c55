import { existsSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compiledScript } from '../../../reference/plugin/launcher.js';
import type { CodeGeneratorResponse, GeneratedFile } from '../../../reference/plugin/types.js';
import { createExecRunner } from '../../../src/targets/exec-runner.js';
import { runCompiler, type CompilerInvocation, type CompilerOutcome } from '../../../suites/plugin/checks/compiler-harness.js';
import { expectedOutcome, judgeCompiler, type CompilerFinding, type Expectation } from '../../../suites/plugin/checks/compiler-verdict.js';
import { loadFixture } from '../../../suites/plugin/checks/fixtures.js';
import { commandAvailable, declarePeer, requirePeer } from '../../helpers/peer.js';

/**
 * Differential test: the model (reference/plugin/model) against real protoc 3.21 on the same
 * plugin responses. Where they differ, the spec decides; the only differences allowed are the
 * recorded findings about protoc (suites/plugin/FINDINGS.md): protoc accepts file names that
 * spec A, Rules for File, rule 1 forbids.
 */
const protoc = requirePeer('protoc', commandAvailable('protoc'), 'apt-get install protobuf-compiler');
const built = existsSync(compiledScript('scripted-plugin-main'));
const runner = createExecRunner();
const M = '@@protoc_insertion_point';

/** Spec-forbidden names protoc 3.21 accepts: the findings the comparison tolerates. */
const NAME_RULES = new Set(['PLUGIN-COMPILER-NAME-RELATIVE', 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS', 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR']);

type Verdict = { kind: 'same' } | { kind: 'protoc-accepts-bad-name'; rule: string } | { kind: 'disagree'; findings: CompilerFinding[] };

interface Run {
  expectation: Expectation;
  outcome: CompilerOutcome;
  verdict: Verdict;
}

async function compare(responses: readonly CodeGeneratorResponse[], fixtureName = 'shop'): Promise<Run> {
  const fixture = loadFixture(fixtureName);
  const inv: CompilerInvocation = {
    compiler: ['protoc'],
    generators: responses.map((response, i) => ({ name: `g${i + 1}`, response })),
    descriptorSet: fixture.set,
    files: fixture.file_to_generate,
  };
  const outcome = await runCompiler(runner, inv);
  const expectation = expectedOutcome(inv, outcome.sandbox);
  const findings = judgeCompiler(expectation, outcome, 'MODEL-TREE');
  let verdict: Verdict;
  if (findings.length === 0) verdict = { kind: 'same' };
  else if (!expectation.ok && outcome.exitCode === 0 && NAME_RULES.has(expectation.error.rule)) verdict = { kind: 'protoc-accepts-bad-name', rule: expectation.error.rule };
  else verdict = { kind: 'disagree', findings };
  return { expectation, outcome, verdict };
}

const fixed: { title: string; responses: CodeGeneratorResponse[]; fixture?: string }[] = [
  { title: 'one file', responses: [{ file: [{ name: 'a.txt', content: 'hello\n' }] }] },
  { title: 'nested folders and empty components', responses: [{ file: [{ name: 'x/y/z.txt', content: 'z' }, { name: 'd//c.txt', content: 'c' }] }] },
  { title: 'nameless chunks append', responses: [{ file: [{ name: 'a', content: '1' }, { content: '2' }, { name: 'b', content: '3' }, { content: '4' }] }] },
  { title: 'nameless first chunk', responses: [{ file: [{ content: 'x' }] }] },
  { title: 'nameless first chunk of a second generator', responses: [{ file: [{ name: 'a', content: '1' }] }, { file: [{ content: '2' }] }] },
  { title: 'insertion with indentation, text after the marker, empty lines, missing final newline', responses: [{ file: [
    { name: 'a', content: `l1\n \t// ${M}(P) tail\nl3\n` }, { name: 'a', insertion_point: 'P', content: 'i1\n\ni3' }, { name: 'a', insertion_point: 'P', content: 'j\n' },
  ] }] },
  { title: 'insertion continued by a nameless chunk', responses: [{ file: [{ name: 'a', content: `  ${M}(P)` }, { name: 'a', insertion_point: 'P', content: 'i' }, { content: 'more\n' }] }] },
  { title: 'empty insertion and marker at end of file without newline', responses: [{ file: [{ name: 'a', content: `x\n\t${M}(P)` }, { name: 'a', insertion_point: 'P', content: '' }] }] },
  { title: 'first of two marker lines', responses: [{ file: [{ name: 'a', content: `${M}(P)\n  ${M}(P)\n` }, { name: 'a', insertion_point: 'P', content: 'q' }] }] },
  { title: 'other whitespace is no indentation', responses: [{ file: [{ name: 'a', content: `\v\f ${M}(P)\n` }, { name: 'a', insertion_point: 'P', content: 'q' }] }] },
  { title: 'CRLF lines', responses: [{ file: [{ name: 'a', content: `x\r\n  ${M}(P)\r\n` }, { name: 'a', insertion_point: 'P', content: 'i1\r\ni2\n' }] }] },
  { title: 'insertion point missing', responses: [{ file: [{ name: 'a', content: 'x' }, { name: 'a', insertion_point: 'Q', content: 'y' }] }] },
  { title: 'insertion point name is matched whole', responses: [{ file: [{ name: 'a', content: `${M}(PP)` }, { name: 'a', insertion_point: 'P', content: 'y' }] }] },
  { title: 'insertion without a file name', responses: [{ file: [{ name: 'a', content: `${M}(P)` }, { insertion_point: 'P', content: 'y' }] }] },
  { title: 'insertion into a missing file', responses: [{ file: [{ name: 'b', insertion_point: 'P', content: 'y' }] }] },
  { title: 'second generator inserts into the first one\'s file', responses: [{ file: [{ name: 'a', content: `x\n${M}(P)\n` }] }, { file: [{ name: 'a', insertion_point: 'P', content: 'from g2\n' }] }] },
  { title: 'first generator inserts into the second one\'s file', responses: [{ file: [{ name: 'a', insertion_point: 'P', content: 'y' }] }, { file: [{ name: 'a', content: `x\n${M}(P)\n` }] }] },
  { title: 'the same file twice in one response', responses: [{ file: [{ name: 'a', content: 'x' }, { name: 'a', content: 'y' }] }] },
  { title: 'the same file from two generators', responses: [{ file: [{ name: 'a', content: 'x' }] }, { file: [{ name: 'a', content: 'y' }] }] },
  { title: 'error set: generation fails, nothing written', responses: [{ file: [{ name: 'a', content: 'x' }] }, { error: 'bad schema', file: [{ name: 'b', content: 'y' }] }] },
  { title: 'empty error is no error', responses: [{ error: '', file: [{ name: 'a', content: 'x' }] }] },
  { title: 'unknown feature bits are ignored', responses: [{ supported_features: '18446744073709551615', file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional without the feature', fixture: 'optional', responses: [{ supported_features: 0, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional without the feature, unknown bits set', fixture: 'optional', responses: [{ supported_features: 6, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional with the feature', fixture: 'optional', responses: [{ supported_features: 1, file: [{ name: 'a', content: 'x' }] }] },
  { title: 'proto3 optional only in an import does not matter', fixture: 'shop', responses: [{ file: [{ name: 'a', content: 'x' }] }] },
  { title: 'a name naming a folder', responses: [{ file: [{ name: 'dir/', content: 'x' }] }] },
];

describe('model vs protoc 3.21 (differential)', () => {
  declarePeer(protoc);
  it('has the compiled scripted plugin (npm run build)', () => {
    expect(built).toBe(true);
  });

  describe.skipIf(protoc.skip || !built)('fixed responses', () => {
    it.each(fixed)('$title', async ({ responses, fixture }) => {
      const run = await compare(responses, fixture);
      expect(run.verdict).toEqual({ kind: 'same' });
    });
  });

  describe.skipIf(protoc.skip || !built)('findings: protoc accepts names that rule 1 forbids', () => {
    it('follows ".." out of the output folder', async () => {
      const run = await compare([{ file: [{ name: '../escaped.txt', content: 'x' }, { name: 'x/../../../up3.txt', content: 'y' }] }]);
      expect(run.verdict).toEqual({ kind: 'protoc-accepts-bad-name', rule: 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS' });
      // out is fs/a/b/out: one level up lands in a/b/, three levels up in a/.
      expect(Object.fromEntries(run.outcome.strays)).toEqual({ 'a/b/escaped.txt': 'x', 'a/up3.txt': 'y' });
    });
    it('writes an absolute name under the output folder', async () => {
      const run = await compare([{ file: [{ name: '/abs/a.txt', content: 'x' }] }]);
      expect(run.verdict).toEqual({ kind: 'protoc-accepts-bad-name', rule: 'PLUGIN-COMPILER-NAME-RELATIVE' });
      expect(Object.fromEntries(run.outcome.outputs.get('out') ?? [])).toEqual({ 'abs/a.txt': 'x' });
    });
    it('accepts "." and ".." components that stay inside', async () => {
      const run = await compare([{ file: [{ name: './a.txt', content: 'x' }, { name: 'k/../b.txt', content: 'y' }] }]);
      expect(run.verdict).toEqual({ kind: 'protoc-accepts-bad-name', rule: 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS' });
      expect(Object.fromEntries(run.outcome.outputs.get('out') ?? [])).toEqual({ 'a.txt': 'x', 'b.txt': 'y' });
    });
    it('takes a backslash as part of the file name', async () => {
      const run = await compare([{ file: [{ name: 'dir\\a.txt', content: 'x' }] }]);
      expect(run.verdict).toEqual({ kind: 'protoc-accepts-bad-name', rule: 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR' });
      expect(Object.fromEntries(run.outcome.outputs.get('out') ?? [])).toEqual({ 'dir\\a.txt': 'x' });
    });
  });

  describe.skipIf(protoc.skip || !built)('generated responses', () => {
    const point = fc.constantFrom('P', 'Q');
    const goodName = fc.constantFrom('a.txt', 'dir/b.txt', 'd//c.txt', 'deep/er/e.txt');
    const badName = fc.constantFrom('/abs.txt', './a.txt', 'x/../a.txt', '../esc.txt', 'a\\b.txt', 'dir/');
    const name = fc.oneof({ weight: 8, arbitrary: goodName }, { weight: 1, arbitrary: badName });
    const markerLine = fc.tuple(fc.constantFrom('', '  ', '\t', ' \t'), point, fc.constantFrom('', ' tail'))
      .map(([indent, p, tail]) => `${indent}// ${M}(${p})${tail}`);
    const line = fc.oneof(fc.constantFrom('code;', '', '  x', '\tt'), markerLine);
    const content = fc.tuple(fc.array(line, { maxLength: 4 }), fc.boolean()).map(([lines, nl]) => lines.join('\n') + (nl ? '\n' : ''));
    const file: fc.Arbitrary<GeneratedFile> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ name, content }) },
      { weight: 4, arbitrary: fc.record({ name: goodName, insertion_point: point, content }) },
      { weight: 2, arbitrary: fc.record({ content }) },
      { weight: 1, arbitrary: fc.record({ insertion_point: point, content }) },
    );
    const response: fc.Arbitrary<CodeGeneratorResponse> = fc.record({
      file: fc.array(file, { maxLength: 5 }),
      supported_features: fc.constantFrom(0, 1, 3),
      error: fc.constantFrom('', '', '', 'boom'),
    });
    const invocation = fc.record({ responses: fc.array(response, { minLength: 1, maxLength: 3 }), fixture: fc.constantFrom('shop', 'shop', 'optional') });

    it('the model and protoc agree on every generated invocation, except for the recorded name findings', async () => {
      const seen = { same: 0, bad: 0, accepted: 0, rejected: 0 };
      await fc.assert(
        fc.asyncProperty(invocation, async ({ responses, fixture }) => {
          const run = await compare(responses, fixture);
          if (run.verdict.kind === 'disagree') {
            throw new Error(`model and protoc disagree: ${JSON.stringify({ findings: run.verdict.findings, stderr: run.outcome.stderr })}`);
          }
          if (run.verdict.kind === 'same') seen.same++;
          else seen.bad++;
          if (run.expectation.ok) seen.accepted++;
          else seen.rejected++;
        }),
        { numRuns: Number(process.env['SPECGATE_DIFF_RUNS'] ?? 120), seed: Number(process.env['SPECGATE_SEED'] ?? 20240611) },
      );
      // The generator must reach both verdicts, or the comparison proves little.
      expect(seen.accepted).toBeGreaterThan(10);
      expect(seen.rejected).toBeGreaterThan(10);
    }, 300_000);
  });
});
