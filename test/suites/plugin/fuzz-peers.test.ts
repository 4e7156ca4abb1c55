import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { builtSpecgate, declarePeer, requirePeer } from '../../helpers/peer.js';
import { localProgram, systemProgram } from '../../helpers/programs.js';

/**
 * `specgate fuzz plugin` against real plugins, through the CLI: valid generated requests must
 * never make a conformant plugin crash, hang, exit non-zero or answer a rule-breaking response.
 * Expected outcomes are the confirmed findings of suites/plugin/FINDINGS.md: the Go plugins need a
 * `go_package` on every file (profile var `fuzz_go_package`), and protoc-gen-es and ts-proto
 * declare feature bit 2, which this spec's Feature enum does not have; both are also fuzzed past
 * that finding with a baseline (`fuzz --baseline`). ts-proto and @protobuf-ts/plugin's
 * protoc-gen-ts write code for imports (PLUGIN-FILE-TO-GENERATE, found by `specgate run` too),
 * which the fuzzer judges by the files written for the imports alone and for everything: they
 * are fuzzed past it with a baseline. Each valid request costs about three plugin runs (the
 * usual wire order, another order, the imports asked for), so the runs are few.
 */
const cli = fromRoot('bin', 'specgate.js');
const built = builtSpecgate();
declarePeer(built);
const work = mkdtempSync(join(tmpdir(), 'specgate-fuzz-peers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const goProfile = join(work, 'go.yaml');
writeFileSync(goProfile, 'name: go plugins\nsuites:\n  plugin:\n    vars:\n      fuzz_go_package: true\n');

interface Peer {
  name: string;
  /** Absolute path of the plugin, undefined when it is not installed. */
  path: string | undefined;
  hint: string;
  profile?: string;
  /** The requirement the fuzzer must report, or undefined when no finding is expected. */
  finding?: string;
  /** Confirmed findings given to the fuzzer as a baseline, so it searches past them. */
  baseline?: string[];
  /** Valid requests to fuzz with (default 12): 3 for plugins that start a Node.js process per run, the costly ones. */
  runs?: number;
}

const peers: Peer[] = [
  { name: 'protoc-gen-go', path: systemProgram('protoc-gen-go'), hint: 'apt-get install protoc-gen-go', profile: goProfile },
  { name: 'protoc-gen-go-grpc', path: systemProgram('protoc-gen-go-grpc'), hint: 'apt-get install protoc-gen-go-grpc', profile: goProfile },
  { name: 'grpc_cpp_plugin', path: systemProgram('grpc_cpp_plugin'), hint: 'apt-get install protobuf-compiler-grpc' },
  { name: 'protoc-gen-es', path: localProgram('protoc-gen-es'), hint: 'npm ci (devDependency @bufbuild/protoc-gen-es)', finding: 'PLUGIN-FEATURES-KNOWN-BITS', runs: 3 },
  { name: 'protoc-gen-es-past-its-finding', path: localProgram('protoc-gen-es'), hint: 'npm ci (devDependency @bufbuild/protoc-gen-es)', baseline: ['PLUGIN-FEATURES-KNOWN-BITS'], runs: 3 },
  { name: 'ts-proto', path: localProgram('protoc-gen-ts_proto'), hint: 'npm ci (devDependency ts-proto)', baseline: ['PLUGIN-FEATURES-KNOWN-BITS', 'PLUGIN-FILE-TO-GENERATE'], runs: 3 },
  { name: 'protoc-gen-ts', path: localProgram('protoc-gen-ts'), hint: 'npm ci (devDependency @protobuf-ts/plugin)', baseline: ['PLUGIN-FILE-TO-GENERATE'], runs: 3 },
];

for (const peer of peers) {
  const present = requirePeer(peer.name, peer.path !== undefined, peer.hint);
  declarePeer(present);
  describe.skipIf(built.skip || present.skip)(`fuzz ${peer.name}`, () => {
    const title = peer.finding ? `finds only the confirmed ${peer.finding}` : `finds nothing in ${peer.runs ?? 12} valid requests${peer.baseline ? ` past its confirmed ${peer.baseline.join(', ')} (baseline)` : ''}`;
    it(title, () => {
      const out = join(work, peer.name);
      const args = [cli, 'fuzz', 'plugin', '--plugin', peer.path ?? '', '--runs', String(peer.runs ?? 12), '--seed', '777', '--concurrency', '2', '--out', out];
      if (peer.profile) args.push('--target', peer.profile);
      if (peer.baseline) {
        const file = join(work, `${peer.name}-baseline.yaml`);
        writeFileSync(file, `expected-failures:\n${peer.baseline.map((id) => `  - { id: ${id}, reason: confirmed finding (suites/plugin/FINDINGS.md) }\n`).join('')}`);
        args.push('--baseline', file);
      }
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 600_000 });
      const text = `${r.stdout}${r.stderr}`;
      if (!peer.finding) {
        expect(r.status, text).toBe(0);
        expect(text).toContain('no finding');
        for (const id of peer.baseline ?? []) expect(text).toMatch(new RegExp(`expected by the baseline, not reported: .*${id} in [1-9]`));
      } else {
        expect(r.status, text).toBe(1);
        expect(r.stdout).toMatch(new RegExp(`^${peer.finding}: `, 'm'));
        expect(text).toContain('replay:');
      }
    }, 600_000);
  });
}
