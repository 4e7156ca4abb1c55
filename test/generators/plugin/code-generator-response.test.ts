import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenPluginExchange, DEFECT_KINDS } from '../../../generators/plugin/broken-code-generator-response.js';
import { pluginExchange } from '../../../generators/plugin/code-generator-response.js';
import { outputPathsClash } from '../../../generators/plugin/naming.js';
import { needsProto3Optional } from '../../../generators/plugin/response-plan.js';
import { applyResponses, diskPath, proto3OptionalFilesToGenerate, validatePluginResponse } from '../../../reference/plugin/model/index.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { ProtocEcho } from './protoc-echo.js';
import { PROTOC } from '../../helpers/programs.js';

const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');

describe('valid responses', () => {
  it('break no plugin rule and apply cleanly in the reference model', () => {
    let insertions = 0;
    let appends = 0;
    fc.assert(
      fc.property(pluginExchange(), ({ request, response }) => {
        expect(validatePluginResponse(response, request)).toEqual([]);
        const applied = applyResponses([response], { proto3OptionalFiles: proto3OptionalFilesToGenerate(request) });
        expect(applied.ok ? 'ok' : applied.error.message).toBe('ok');
        if (needsProto3Optional(request)) expect(response.supported_features).toBe(1);
        insertions += (response.file ?? []).filter((f) => (f.insertion_point ?? '') !== '').length;
        appends += (response.file ?? []).filter((f) => f.name === undefined).length;
        // no created file names a folder another one needs (no compiler could write both)
        const names = [...new Set((response.file ?? []).flatMap((f) => (f.name ? [f.name] : [])))];
        for (const a of names) for (const b of names) expect(outputPathsClash(a, b), `${a} / ${b}`).toBe(false);
      }),
      { seed: 31, numRuns: 300 },
    );
    // The generator really exercises rules 2-5, not only plain files.
    expect(insertions).toBeGreaterThan(50);
    expect(appends).toBeGreaterThan(50);
  });
});

describe('broken responses', () => {
  it('break exactly the rule they are labeled with, as the reference model sees it', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(brokenPluginExchange(), (broken) => {
        seen.add(broken.defect);
        const pluginSide = validatePluginResponse(broken.response, broken.request).map((v) => v.requirement);
        expect(pluginSide).toEqual(broken.plugin === undefined ? [] : [broken.plugin]);
        const applied = applyResponses([broken.response], { proto3OptionalFiles: proto3OptionalFilesToGenerate(broken.request) });
        if (broken.compiler === undefined) {
          expect(applied.ok).toBe(true);
        } else {
          expect(applied.ok ? undefined : applied.error.key).toBe(broken.rule);
          expect(applied.ok ? undefined : applied.error.rule).toBe(broken.compiler);
        }
      }),
      { seed: 32, numRuns: 400 },
    );
    expect([...seen].sort()).toEqual([...DEFECT_KINDS].sort());
  });
});

describe('valid responses through real protoc', () => {
  declarePeer(protoc);
  const echo = protoc.skip ? undefined : new ProtocEcho();
  afterAll(() => echo?.close());

  it.skipIf(protoc.skip)('protoc accepts them and writes the tree the reference model predicts', () => {
    if (!echo) return;
    fc.assert(
      fc.property(pluginExchange({ maxFiles: 2 }), ({ request, response }) => {
        const verdict = echo.respond(request, response);
        expect(verdict.stderr).toBe('');
        expect(verdict.status).toBe(0);
        // protoc 3.21 treats a marker right after "/* " as inline: it inserts before the "/*",
        // not above the line (spec A, Rules for File, rules 4-5 say above the line). That is a
        // finding about protoc, for the compiler-side suite; the tree is compared without it.
        if ((response.file ?? []).some((f) => (f.content ?? '').includes('/* @@'))) return;
        const model = applyResponses([response], { proto3OptionalFiles: proto3OptionalFilesToGenerate(request) });
        if (!model.ok) throw new Error(model.error.message);
        const expected = new Map([...model.tree].map(([name, content]) => [diskPath(name), content]));
        expect(verdict.tree).toEqual(expected);
      }),
      { seed: 33, numRuns: 150 },
    );
  });
});
