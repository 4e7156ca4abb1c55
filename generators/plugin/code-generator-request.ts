import fc from 'fast-check';
import type { CodeGeneratorRequestValue, FileDescriptorSetValue, FileDescriptorValue, VersionValue } from './descriptor-types.js';
import type { PlanLimits } from './descriptor-plan.js';
import { fileDescriptorSet } from './file-descriptor-set.js';
import { isWellKnownFile } from './well-known.js';

/** Generator parameters as users pass them on the command line (`--NAME_out=PARAM:dir`). */
export const generatorParameter: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('paths=source_relative', 'plugins=grpc', 'a=b,c=d', 'x', 'key=value=more', 'two words', 'opt=', 'Mfoo.proto=example.com/foo'),
  fc.stringMatching(/^[a-z0-9_=,./-]{1,24}$/),
);

/** Compiler versions; `suffix` is empty for stable releases (spec A, Version). */
export const compilerVersion: fc.Arbitrary<VersionValue> = fc.record({
  major: fc.integer({ min: 3, max: 5 }),
  minor: fc.nat({ max: 30 }),
  patch: fc.nat({ max: 20 }),
  suffix: fc.constantFrom('', '', '', 'rc1', 'alpha-1', 'beta-2'),
});

/**
 * What goes into `proto_file` when the compiler is asked to generate `toGenerate`: each file
 * after everything it imports, depth first in `dependency` order, each file once — the order
 * the compiler itself uses, which is topological but not necessarily the order of the set.
 */
export function transitiveFiles(set: FileDescriptorSetValue, toGenerate: readonly string[]): FileDescriptorValue[] {
  const byName = new Map(set.file.map((f) => [f.name, f]));
  const seen = new Set<string>();
  const out: FileDescriptorValue[] = [];
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const file = byName.get(name);
    if (!file) return;
    for (const dep of file.dependency ?? []) visit(dep);
    out.push(file);
  };
  toGenerate.forEach(visit);
  return out;
}

export interface RequestOptions extends Partial<PlanLimits> {
  /** Always (true) or never (false) set `compiler_version`; random when absent. */
  compilerVersion?: boolean;
}

/**
 * Valid CodeGeneratorRequests (spec A, "Plugin messages"): `file_to_generate` is a non-empty
 * choice of the set's own files (well-known imports are never asked for), the last file of the
 * set first and others in any order (as on a command line); `proto_file` holds those files and everything they import, in topological order;
 * `parameter` and `compiler_version` are optional.
 */
export function codeGeneratorRequest(opts: RequestOptions = {}): fc.Arbitrary<CodeGeneratorRequestValue> {
  const version = opts.compilerVersion === undefined ? fc.option(compilerVersion, { nil: undefined }) : opts.compilerVersion ? compilerVersion : fc.constant(undefined);
  return fc
    .record({
      set: fileDescriptorSet(opts),
      // Pick k counts back from the last file, so small (shrunk) picks mean "the last files".
      picks: fc.array(fc.nat({ max: 15 }), { minLength: 1, maxLength: 3 }),
      parameter: fc.option(generatorParameter, { nil: undefined, freq: 3 }),
      version,
    })
    .map(({ set, picks, parameter, version: v }) => {
      // Well-known files are imported, not asked for, as on a real command line.
      const own = set.file.filter((f) => !isWellKnownFile(f.name));
      const n = own.length;
      const names: string[] = [];
      for (const pick of picks) {
        const name = own[n - 1 - (pick % n)]?.name;
        if (name !== undefined && !names.includes(name)) names.push(name);
      }
      const request: CodeGeneratorRequestValue = { file_to_generate: names, proto_file: transitiveFiles(set, names) };
      if (parameter !== undefined) request.parameter = parameter;
      if (v !== undefined) request.compiler_version = v;
      return request;
    });
}
