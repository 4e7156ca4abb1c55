import { describe, expect, it } from 'vitest';
import type { CompilerInvocation, ScriptedGenerator } from '../../../../suites/plugin/checks/compiler-harness.js';
import { diagnoseRefusal } from '../../../../suites/plugin/checks/diagnose.js';

function invocation(generators: ScriptedGenerator[]): CompilerInvocation {
  return { compiler: ['protoc'], generators, descriptorSet: { file: [{ name: 'a.proto' }] }, files: ['a.proto'] };
}

const FALLBACK = 'PLUGIN-COMPILER-INSERTION-PLACEMENT';

describe('diagnoseRefusal (a compiler refused output the spec allows)', () => {
  it('names rule 2 when an append that replaced the previous chunk would lose the marker an insertion needs', () => {
    const inv = invocation([
      {
        name: 'g1',
        response: {
          file: [
            { name: 'a.txt', content: '// @@protoc_insertion_point(p)\n' },
            { content: 'tail\n' },
            { name: 'a.txt', insertion_point: 'p', content: 'x\n' },
          ],
        },
      },
    ]);
    expect(diagnoseRefusal(inv, '/sandbox', FALLBACK)).toBe('PLUGIN-COMPILER-APPEND');
  });

  it('names rule 6 when the generators in reverse order would insert into a file not made yet', () => {
    const inv = invocation([
      { name: 'g1', response: { file: [{ name: 'a.txt', content: '// @@protoc_insertion_point(p)\n' }] } },
      { name: 'g2', response: { file: [{ name: 'a.txt', insertion_point: 'p', content: 'x\n' }] } },
    ]);
    expect(diagnoseRefusal(inv, '/sandbox', FALLBACK)).toBe('PLUGIN-COMPILER-GENERATOR-ORDER');
  });

  it('keeps the fallback when no bent rule explains the refusal', () => {
    const inv = invocation([{ name: 'g1', response: { file: [{ name: 'a.txt', content: 'plain\n' }] } }]);
    expect(diagnoseRefusal(inv, '/sandbox', FALLBACK)).toBe(FALLBACK);
  });
});
