import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeDescriptorSet } from '../../../reference/plugin/codec.js';
import { fromRoot } from '../../../src/paths.js';
import { WELL_KNOWN_FILES, wellKnownDescriptors, wellKnownFile, wellKnownSymbols } from '../../../generators/plugin/well-known.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { PROTOC, protocCommand } from '../../helpers/programs.js';

/**
 * generators/plugin/well-known.json is what protoc builds from the well-known .proto files it
 * ships. Run with SPECGATE_UPDATE_PLUGIN_DATA=1 to rewrite it after a protoc upgrade.
 */
const protoc = requirePeer('protoc', PROTOC !== undefined, 'apt-get install protobuf-compiler');

describe('stored well-known-type descriptors', () => {
  declarePeer(protoc);
  it.skipIf(protoc.skip)('match what protoc builds from its google/protobuf/*.proto', () => {
    const dir = mkdtempSync(join(tmpdir(), 'specgate-wkt-'));
    try {
      const out = join(dir, 'set.pb');
      const r = spawnSync(protocCommand, [`--descriptor_set_out=${out}`, ...WELL_KNOWN_FILES], { encoding: 'utf8', cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      const built = { file: decodeDescriptorSet(readFileSync(out)).file ?? [] };
      const path = fromRoot('generators', 'plugin', 'well-known.json');
      if (process.env['SPECGATE_UPDATE_PLUGIN_DATA'] === '1') writeFileSync(path, `${JSON.stringify(built, null, 2)}\n`);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(built);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds every offered file, none of which imports anything', () => {
    expect(wellKnownDescriptors().map((f) => f.name)).toEqual([...WELL_KNOWN_FILES]);
    WELL_KNOWN_FILES.forEach((_, i) => expect(wellKnownFile(i).dependency ?? []).toEqual([]));
  });

  it('lists the symbols a file defines, nested types and enum values included', () => {
    const struct = wellKnownSymbols(wellKnownFile(WELL_KNOWN_FILES.indexOf('google/protobuf/struct.proto')));
    expect(struct).toEqual(expect.arrayContaining(['google.protobuf.Struct', 'google.protobuf.Struct.FieldsEntry', 'google.protobuf.Value', 'google.protobuf.ListValue', 'google.protobuf.NullValue', 'google.protobuf.NULL_VALUE']));
  });
});
