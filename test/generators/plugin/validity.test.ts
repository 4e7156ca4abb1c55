import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { codeGeneratorRequest } from '../../../generators/plugin/code-generator-request.js';
import { fileDescriptorSet } from '../../../generators/plugin/file-descriptor-set.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { ProtocEcho } from './protoc-echo.js';
import { PROTOC } from '../../helpers/programs.js';

/**
 * The proof that generated descriptor sets are valid: real protoc loads every one of them
 * (`--descriptor_set_in`), runs a plugin on all its files, and hands that plugin a
 * CodeGeneratorRequest whose proto_file is exactly the generated set — so the generator also
 * writes descriptors the way the compiler does (json_name, map entries, synthetic oneofs, ...).
 *
 * Runs: SPECGATE_VALIDITY_RUNS (default 200). Seed: SPECGATE_SEED, else random and printed.
 */
const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');
const runs = Number(process.env.SPECGATE_VALIDITY_RUNS ?? 200);
const seed = Number(process.env.SPECGATE_SEED ?? Math.floor(Math.random() * 0x7fffffff));

describe('generated descriptor sets against protoc', () => {
  declarePeer(protoc);
  const echo = protoc.skip ? undefined : new ProtocEcho();
  afterAll(() => echo?.close());

  it.skipIf(protoc.skip)(`protoc accepts every set and echoes it unchanged (${runs} sets, seed ${seed})`, () => {
    console.log(`[validity] seed ${seed}, ${runs} runs (replay: SPECGATE_SEED=${seed} npx vitest run test/generators/plugin/validity.test.ts)`);
    if (!echo) return;
    const details = fc.check(
      fc.property(fileDescriptorSet(), (set) => {
        const verdict = echo.check(set);
        if (verdict.status !== 0) throw new Error(`protoc exited ${String(verdict.status)}:\n${verdict.stderr}`);
        expect(verdict.request?.proto_file).toEqual(set.file);
        expect(verdict.request?.file_to_generate).toEqual(set.file.map((f) => f.name));
      }),
      { seed, numRuns: runs },
    );
    reportFailure(details);
  });

  it.skipIf(protoc.skip)(`protoc sends exactly the generated requests (${Math.ceil(runs / 2)} requests, seed ${seed})`, () => {
    if (!echo) return;
    const details = fc.check(
      fc.property(codeGeneratorRequest(), (request) => {
        const verdict = echo.request(request);
        if (verdict.status !== 0) throw new Error(`protoc exited ${String(verdict.status)}:\n${verdict.stderr}`);
        const { compiler_version: _ignored, ...sent } = request;
        const { compiler_version: protocVersion, ...received } = verdict.request ?? {};
        expect(received).toEqual(sent);
        expect(protocVersion).toEqual({ major: 3, minor: 21, patch: 12, suffix: '' });
      }),
      { seed, numRuns: Math.ceil(runs / 2) },
    );
    reportFailure(details);
  });
});

function reportFailure<Ts extends [unknown]>(details: fc.RunDetails<Ts>): void {
  if (!details.failed) return;
  const message = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `seed ${seed}, path ${String(details.counterexamplePath)}\n` +
      `counterexample: ${JSON.stringify(details.counterexample?.[0], null, 1)}\n${message}`,
  );
}
