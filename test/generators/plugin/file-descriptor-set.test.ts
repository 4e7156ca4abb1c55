import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDescriptorSet } from '../../../generators/plugin/build-descriptor-set.js';
import { setPlan } from '../../../generators/plugin/descriptor-plan.js';
import type { FileDescriptorSetValue } from '../../../generators/plugin/descriptor-types.js';
import { fileDescriptorSet } from '../../../generators/plugin/file-descriptor-set.js';
import { encodeMessage, decodeMessage } from '../../../reference/plugin/codec.js';
import { TypeNames } from '../../../reference/plugin/schema.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { ProtocEcho } from './protoc-echo.js';
import { setFeatures, type SetFeature } from './set-features.js';
import { PROTOC } from '../../helpers/programs.js';

const ALL_FEATURES: SetFeature[] = [
  'proto2-file', 'proto3-file', 'no-package', 'package', 'shared-package', 'import', 'public-import', 'go-package',
  'nested-depth-2', 'nested-enum', 'oneof-2-fields', 'map-message-value', 'map-enum-value', 'proto3-optional',
  'file-extension', 'message-extension', 'extension-range', 'extension-range-to-max', 'reserved-range', 'reserved-name',
  'enum-alias', 'enum-reserved-range', 'enum-negative-value', 'client-streaming', 'server-streaming', 'required',
  'default-value', 'packed', 'cross-file-type', 'field-number-above-19999', 'field-number-max', 'keyword-field-name',
  'leading-underscore-field',
];

function hasOneofWithTwoFields(set: FileDescriptorSetValue): boolean {
  return setFeatures(set).has('oneof-2-fields');
}

describe('fileDescriptorSet', () => {
  it('shows every schema feature it promises within 400 sets', () => {
    const seen = new Map<SetFeature, number>();
    for (const set of fc.sample(fileDescriptorSet(), { seed: 20240601, numRuns: 400 })) {
      for (const f of setFeatures(set)) seen.set(f, (seen.get(f) ?? 0) + 1);
    }
    const missing = ALL_FEATURES.filter((f) => !seen.has(f));
    expect(missing).toEqual([]);
  });

  it('maps one plan to one set (the mapping is deterministic)', () => {
    fc.assert(
      fc.property(setPlan(), (plan) => {
        expect(buildDescriptorSet(structuredClone(plan))).toEqual(buildDescriptorSet(structuredClone(plan)));
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it('round-trips through the plugin codec unchanged (generated shape = decoded shape)', () => {
    fc.assert(
      fc.property(fileDescriptorSet(), (set) => {
        const bytes = encodeMessage(TypeNames.fileDescriptorSet, set);
        expect(decodeMessage(TypeNames.fileDescriptorSet, bytes)).toEqual(set);
      }),
      { seed: 8, numRuns: 200 },
    );
  });

  it('keeps type names fully qualified and resolvable in the files each file may see', () => {
    fc.assert(
      fc.property(fileDescriptorSet(), (set) => {
        const declared = new Map<string, string>();
        const visit = (file: string, scope: string, ms: FileDescriptorSetValue['file'][number]['messageType'] = []): void => {
          for (const m of ms) {
            declared.set(`${scope}.${m.name}`, file);
            for (const e of m.enumType ?? []) declared.set(`${scope}.${m.name}.${e.name}`, file);
            visit(file, `${scope}.${m.name}`, m.nestedType);
          }
        };
        for (const f of set.file) {
          const scope = f.package === undefined ? '' : `.${f.package}`;
          visit(f.name, scope, f.messageType);
          for (const e of f.enumType ?? []) declared.set(`${scope}.${e.name}`, f.name);
        }
        for (const f of JSON.stringify(set).matchAll(/"(?:typeName|extendee|inputType|outputType)":"([^"]*)"/g)) {
          expect(f[1]?.startsWith('.')).toBe(true);
          expect(declared.has(f[1] ?? '')).toBe(true);
        }
      }),
      { seed: 9, numRuns: 200 },
    );
  });

  it('shrinks to a minimal set: one file, one message, one oneof of two fields', () => {
    const details = fc.check(
      fc.property(fileDescriptorSet(), (set) => !hasOneofWithTwoFields(set)),
      { seed: 42, numRuns: 500 },
    );
    expect(details.failed).toBe(true);
    const shrunk = details.counterexample?.[0];
    expect(shrunk?.file).toHaveLength(1);
    const file = shrunk?.file[0];
    expect(file?.messageType).toHaveLength(1);
    expect(file?.messageType?.[0]?.field).toHaveLength(2);
    expect(file?.messageType?.[0]?.oneofDecl).toHaveLength(1);
    expect(file?.enumType ?? []).toEqual([]);
    expect(file?.service ?? []).toEqual([]);
  });
});

describe('fileDescriptorSet while shrinking, against protoc', () => {
  const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');
  declarePeer(protoc);

  it.skipIf(protoc.skip)('stays valid at every step on the way down (a spread of the steps checked)', () => {
    const seenWhileShrinking: FileDescriptorSetValue[] = [];
    let shrinking = false;
    const details = fc.check(
      fc.property(fileDescriptorSet(), (set) => {
        // Once the first counterexample is found, every further value is a shrink candidate.
        if (shrinking) seenWhileShrinking.push(set);
        const holds = !hasOneofWithTwoFields(set);
        if (!holds) shrinking = true;
        return holds;
      }),
      { seed: 42, numRuns: 500 },
    );
    expect(details.failed).toBe(true);
    expect(seenWhileShrinking.length).toBeGreaterThan(20);
    const echo = new ProtocEcho();
    try {
      const step = Math.max(1, Math.floor(seenWhileShrinking.length / 60));
      for (let i = 0; i < seenWhileShrinking.length; i += step) {
        const set = seenWhileShrinking[i];
        if (!set) continue;
        const verdict = echo.check(set);
        expect(verdict.stderr).toBe('');
        expect(verdict.status).toBe(0);
      }
    } finally {
      echo.close();
    }
  });
});
