import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeDescriptorSet } from '../../../reference/plugin/codec.js';
import { fromRoot } from '../../../src/paths.js';
import { FIXTURES, loadFixture, type DescriptorFixture } from '../../../suites/plugin/checks/fixtures.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { PROTOC, protocCommand } from '../../helpers/programs.js';

/**
 * The stored descriptor sets are what protoc makes of suites/plugin/protos. Run with
 * SPECGATE_UPDATE_PLUGIN_DATA=1 to rewrite them after changing a .proto file.
 */
const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');
const entry: Record<string, string> = { shop: 'shop.proto', optional: 'optional.proto', legacy: 'legacy.proto', plain: 'plain.proto', event: 'event.proto' };

function build(name: string): DescriptorFixture {
  const file = entry[name] as string;
  const dir = mkdtempSync(join(tmpdir(), 'specgate-data-'));
  try {
    const out = join(dir, 'set.pb');
    const r = spawnSync(protocCommand, ['-I', fromRoot('suites/plugin/protos'), '--include_imports', `--descriptor_set_out=${out}`, file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`protoc failed for ${file}: ${r.stderr}`);
    return { name, description: FIXTURES[name as keyof typeof FIXTURES], file_to_generate: [file], set: decodeDescriptorSet(readFileSync(out)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('stored descriptor fixtures', () => {
  declarePeer(protoc);
  it.each(Object.keys(FIXTURES))('%s matches what protoc builds from suites/plugin/protos', (name) => {
    if (protoc.skip) return;
    const built = build(name);
    const path = fromRoot('suites', 'plugin', 'data', `${name}.json`);
    if (process.env['SPECGATE_UPDATE_PLUGIN_DATA'] === '1') writeFileSync(path, `${JSON.stringify(built, null, 2)}\n`);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(built);
  });

  it('every fixture names files that its set holds, in topological order', () => {
    for (const name of Object.keys(FIXTURES)) {
      const f = loadFixture(name);
      const names = (f.set.file ?? []).map((d) => d.name);
      for (const g of f.file_to_generate) expect(names).toContain(g);
      (f.set.file ?? []).forEach((d, i) => {
        for (const dep of d.dependency ?? []) expect(names.indexOf(dep)).toBeLessThan(i);
      });
    }
  });
});
