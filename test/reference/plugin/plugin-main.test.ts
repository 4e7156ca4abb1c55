import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeResponse, encodeRequest } from '../../../reference/plugin/codec.js';
import { generate, REFERENCE_MARKER } from '../../../reference/plugin/generator.js';
import { compiledScript } from '../../../reference/plugin/launcher.js';
import { validatePluginResponse } from '../../../reference/plugin/model/index.js';
import { fromRoot } from '../../../src/paths.js';
import { loadFixture, requestFor } from '../../../suites/plugin/checks/fixtures.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { PROTOC, protocCommand } from '../../helpers/programs.js';

const shop = loadFixture('shop');

describe('reference generator', () => {
  it('lists the messages and services of each file to generate, only those, with an indented marker', () => {
    const res = generate(requestFor(shop));
    expect(res.supported_features).toBe(1);
    expect(res.file?.map((f) => f.name)).toEqual(['shop.listing.txt']);
    const content = res.file?.[0]?.content ?? '';
    expect(content).toContain('message specgate.fixture.shop.Item.Note');
    expect(content).toContain('  .specgate.fixture.common.Money price = 2');
    expect(content).toContain('rpc Watch(.specgate.fixture.shop.Item) returns (.specgate.fixture.shop.Item)');
    expect(content).toContain(`  // ${REFERENCE_MARKER}\n`);
    expect(validatePluginResponse(res, requestFor(shop))).toEqual([]);
  });

  it('honours its parameters', () => {
    const chunked = generate(requestFor(shop, { parameter: 'chunk_lines=3,suffix=.txt' }));
    expect(chunked.file?.[0]?.name).toBe('shop.txt');
    expect(chunked.file?.slice(1).every((f) => f.name === undefined)).toBe(true);
    const withoutParameter = (t: string | undefined): string => (t ?? '').replace(/^\/\/ parameter: .*\n/m, '');
    expect(withoutParameter(chunked.file?.map((f) => f.content).join(''))).toBe(withoutParameter(generate(requestFor(shop, { parameter: 'suffix=.txt' })).file?.[0]?.content));
    const ins = generate(requestFor(shop, { parameter: 'insert=other.go@imports' }));
    expect(ins.file?.at(-1)).toMatchObject({ name: 'other.go', insertion_point: 'imports' });
    expect(generate(requestFor(shop, { parameter: 'fail=no' }))).toEqual({ error: 'no', supported_features: 1 });
    expect(generate(requestFor(shop, { parameter: 'bogus' })).error).toMatch(/unknown parameter "bogus"/);
    expect(generate(requestFor(shop, { fileToGenerate: ['shop.proto'], parameter: 'require_messages' })).error).toBeUndefined();
    expect(generate({ file_to_generate: ['e.proto'], proto_file: [{ name: 'e.proto' }], parameter: 'require_messages' }).error).toMatch(/declares no messages/);
    expect(() => generate({ file_to_generate: ['missing.proto'], proto_file: [] })).toThrow(/does not carry it/);
  });
});

const script = compiledScript('plugin-main');
describe.skipIf(!existsSync(script))('reference plugin executable', () => {
  const run = (input: Uint8Array) => spawnSync(process.execPath, [script], { input });
  it('answers a request on stdout with exit 0', () => {
    const r = run(encodeRequest(requestFor(shop)));
    expect(r.status).toBe(0);
    expect(decodeResponse(r.stdout)).toEqual(generate(requestFor(shop)));
  });
  it('puts schema errors in error and still exits 0', () => {
    const r = run(encodeRequest(requestFor(shop, { parameter: 'fail=broken schema' })));
    expect(r.status).toBe(0);
    expect(decodeResponse(r.stdout).error).toBe('broken schema');
  });
  it('reports an unparseable or inconsistent request on stderr with exit 1', () => {
    const bad = run(Uint8Array.from([0x0f, 0x0f]));
    expect(bad.status).toBe(1);
    expect(bad.stderr.toString()).toMatch(/cannot parse the CodeGeneratorRequest/);
    const inconsistent = run(encodeRequest({ file_to_generate: ['nowhere.proto'] }));
    expect(inconsistent.status).toBe(1);
    expect(inconsistent.stderr.toString()).toMatch(/inconsistent request/);
  });
});

const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');
describe('reference plugin and driver under their launchers', () => {
  declarePeer(protoc);
  it.skipIf(protoc.skip || !existsSync(script))('real protoc runs the reference plugin by name and writes its output', () => {
    const out = mkdtempSync(join(tmpdir(), 'specgate-ref-'));
    try {
      const bin = fromRoot('reference', 'plugin', 'bin');
      const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--specgate_out=chunk_lines=4:${out}`, 'shop.proto', 'optional.proto'], {
        encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readdirSync(out).sort()).toEqual(['optional.listing.txt', 'shop.listing.txt']);
      expect(readFileSync(join(out, 'optional.listing.txt'), 'utf8')).toContain('optional type#9 nickname = 1');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
