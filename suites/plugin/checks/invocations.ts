import * as fc from 'fast-check';
import type { CodeGeneratorRequest, CodeGeneratorResponse, GeneratedFile } from '../../../reference/plugin/types.js';
import type { ScriptedGenerator } from './compiler-harness.js';
import { outputPathsClash, uniqueName } from '../../../generators/plugin/naming.js';
import { generatedExchanges } from './generated.js';

/**
 * Generated compiler invocations: a valid request (its proto_file is the descriptor set, its
 * file_to_generate the command line) and one or two generators answering valid responses from
 * generators/plugin, possibly bent to break exactly one rule of spec A, Rules for File.
 */
export interface GeneratedInvocation {
  request: CodeGeneratorRequest;
  generators: ScriptedGenerator[];
  /** Which rule the bend breaks, for reading counterexamples. */
  bend: string;
}

type Bend = (res: CodeGeneratorResponse, pick: number) => CodeGeneratorResponse;

function withFiles(res: CodeGeneratorResponse, files: GeneratedFile[]): CodeGeneratorResponse {
  return { ...res, file: files };
}

/** Rule-breaking edits of a valid response (each keeps the rest valid). */
const BENDS: Record<string, Bend> = {
  none: (r) => r,
  'absolute name': (r) => withFiles(r, [...(r.file ?? []), { name: '/abs/generated.txt', content: 'x\n' }]),
  'dot-dot component': (r) => withFiles(r, [...(r.file ?? []), { name: 'gen/../../escaped.txt', content: 'x\n' }]),
  'dot component': (r) => withFiles(r, [...(r.file ?? []), { name: './dot.txt', content: 'x\n' }]),
  backslash: (r) => withFiles(r, [...(r.file ?? []), { name: 'gen\\back.txt', content: 'x\n' }]),
  'nameless first chunk': (r) => withFiles(r, [{ content: 'orphan\n' }, ...(r.file ?? [])]),
  'insertion without name': (r) => withFiles(r, [...(r.file ?? []), { insertion_point: 'anything', content: 'x\n' }]),
  'insertion into a missing file': (r) => withFiles(r, [...(r.file ?? []), { name: 'never/generated.txt', insertion_point: 'p', content: 'x\n' }]),
  'insertion at a missing point': (r, pick) => {
    const named = (r.file ?? []).filter((f) => f.name && !f.insertion_point);
    const target = named[pick % Math.max(named.length, 1)]?.name;
    return target ? withFiles(r, [...(r.file ?? []), { name: target, insertion_point: 'no_such_point_anywhere', content: 'x\n' }]) : r;
  },
  'same name twice': (r) => {
    const first = (r.file ?? []).find((f) => f.name && !f.insertion_point);
    return first?.name ? withFiles(r, [...(r.file ?? []), { name: first.name, content: 'again\n' }]) : r;
  },
  'error set': (r) => ({ ...r, error: 'generated schema error' }),
};

/**
 * `second` with each file name that clashes with one of `first`'s as file against folder
 * (`gen/a` and `gen/a/b.txt`: naming.ts, outputPathsClash) renamed, in every chunk that names it.
 * The two responses are generated apart; no compiler can write such a pair, and spec A does not
 * say how it must fail, so an invocation never carries one.
 */
export function keptApart(first: CodeGeneratorResponse, second: CodeGeneratorResponse): CodeGeneratorResponse {
  const taken = new Set<string>();
  for (const f of [...(first.file ?? []), ...(second.file ?? [])]) if (f.name) taken.add(f.name);
  const firstNames = [...new Set((first.file ?? []).flatMap((f) => (f.name ? [f.name] : [])))];
  const renamed = new Map<string, string>();
  for (const f of second.file ?? []) {
    const name = f.name;
    if (!name || renamed.has(name) || !firstNames.some((n) => outputPathsClash(name, n))) continue;
    const fresh = uniqueName(name, (c) => !taken.has(c) && ![...taken].some((n) => outputPathsClash(c, n)));
    taken.add(fresh);
    renamed.set(name, fresh);
  }
  if (renamed.size === 0) return second;
  return { ...second, file: (second.file ?? []).map((f) => (f.name && renamed.has(f.name) ? { ...f, name: renamed.get(f.name) } : f)) };
}

export function generatedInvocations(markerPrefix?: string): fc.Arbitrary<GeneratedInvocation> {
  return fc
    .record({
      first: generatedExchanges(markerPrefix),
      second: fc.option(generatedExchanges(markerPrefix), { freq: 3 }),
      // A third unbent: valid invocations exercise appends and insertions, the richer half.
      bend: fc.oneof({ weight: 1, arbitrary: fc.constant('none') }, { weight: 2, arbitrary: fc.constantFrom(...Object.keys(BENDS).filter((k) => k !== 'none')) }),
      pick: fc.nat({ max: 7 }),
      bendSecond: fc.boolean(),
    })
    .map(({ first, second, bend, pick, bendSecond }) => {
      const bender = BENDS[bend] ?? BENDS['none'];
      const responses = [first.response];
      // The second generator answers for the same request (one invocation has one request).
      if (second) responses.push(keptApart(first.response, second.response));
      const target = second && bendSecond ? 1 : 0;
      const generators = responses.map((response, i): ScriptedGenerator => ({ name: `g${i + 1}`, response: i === target && bender ? bender(response, pick) : response }));
      return { request: first.request, generators, bend };
    });
}
