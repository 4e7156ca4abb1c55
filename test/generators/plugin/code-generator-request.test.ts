import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeGeneratorRequest, transitiveFiles } from '../../../generators/plugin/code-generator-request.js';
import type { FileDescriptorValue } from '../../../generators/plugin/descriptor-types.js';
import { decodeRequest, encodeRequest } from '../../../reference/plugin/codec.js';

function file(name: string, dependency: string[] = []): FileDescriptorValue {
  return dependency.length ? { name, dependency } : { name };
}

describe('codeGeneratorRequest', () => {
  it('holds the files to generate and what they import, each file after its imports', () => {
    let withVersion = 0;
    let withParameter = 0;
    fc.assert(
      fc.property(codeGeneratorRequest(), (req) => {
        expect(req.file_to_generate.length).toBeGreaterThan(0);
        expect(new Set(req.file_to_generate).size).toBe(req.file_to_generate.length);
        const names = req.proto_file.map((f) => f.name);
        for (const name of req.file_to_generate) expect(names).toContain(name);
        req.proto_file.forEach((f, i) => {
          for (const dep of f.dependency ?? []) {
            expect(names.indexOf(dep)).toBeGreaterThanOrEqual(0);
            expect(names.indexOf(dep)).toBeLessThan(i);
          }
        });
        // Nothing beyond the closure of the files to generate.
        expect(transitiveFiles({ file: req.proto_file }, req.file_to_generate)).toEqual(req.proto_file);
        if (req.compiler_version) withVersion++;
        if (req.parameter !== undefined) withParameter++;
        expect(decodeRequest(encodeRequest(req))).toEqual(req);
      }),
      { seed: 3, numRuns: 200 },
    );
    expect(withVersion).toBeGreaterThan(20);
    expect(withParameter).toBeGreaterThan(20);
  });

  it('orders proto_file depth first in dependency order, as protoc does', () => {
    const set = { file: [file('a.proto'), file('b.proto'), file('c.proto', ['b.proto', 'a.proto']), file('d.proto')] };
    expect(transitiveFiles(set, ['c.proto']).map((f) => f.name)).toEqual(['b.proto', 'a.proto', 'c.proto']);
    expect(transitiveFiles(set, ['d.proto', 'a.proto']).map((f) => f.name)).toEqual(['d.proto', 'a.proto']);
  });

  it('can leave out or always set compiler_version', () => {
    for (const r of fc.sample(codeGeneratorRequest({ compilerVersion: false }), { seed: 1, numRuns: 30 })) expect(r.compiler_version).toBeUndefined();
    for (const r of fc.sample(codeGeneratorRequest({ compilerVersion: true }), { seed: 1, numRuns: 30 })) expect(r.compiler_version?.major).toBeGreaterThanOrEqual(3);
  });
});
