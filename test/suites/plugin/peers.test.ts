import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { runCli } from '../../e2e/cli.js';
import { builtSpecgate, declarePeer, requirePeer } from '../../helpers/peer.js';
import { PROTOC, findProgram, protocCommand } from '../../helpers/programs.js';

/**
 * Real third-party plugins and compilers, run through the real command line. A conformant peer
 * must pass; every requirement a peer fails here is a deviation confirmed by hand and recorded
 * in suites/plugin/FINDINGS.md (the "confirmed directly" tests reproduce each one without the
 * harness). A requirement failing that is not listed is either a new finding or a harness bug:
 * both must be looked at, so the test fails.
 */

const suiteModule = fromRoot('dist', 'suites', 'plugin', 'index.js');
const built = builtSpecgate(suiteModule);
declarePeer(built);
const work = mkdtempSync(join(tmpdir(), 'specgate-peers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Peer {
  name: string;
  flag: 'plugin' | 'compiler';
  path: string | undefined;
  hint: string;
  vars?: Record<string, string>;
  /** Requirements this peer fails, each confirmed by hand (FINDINGS.md). */
  confirmed: string[];
}

const peers: Peer[] = [
  {
    name: 'protoc-gen-go', flag: 'plugin', path: findProgram('protoc-gen-go'), hint: 'apt-get install protoc-gen-go',
    vars: { plugin_error_fixture: 'plain' }, confirmed: ['PLUGIN-ERROR-EXIT-ZERO'],
  },
  {
    name: 'protoc-gen-go-grpc', flag: 'plugin', path: findProgram('protoc-gen-go-grpc'), hint: 'apt-get install protoc-gen-go-grpc',
    vars: { plugin_error_fixture: 'plain' }, confirmed: ['PLUGIN-ERROR-EXIT-ZERO'],
  },
  // installed as grpc_cpp_plugin: no --NAME_out finds it (it needs --plugin=protoc-gen-grpc=...)
  { name: 'grpc_cpp_plugin', flag: 'plugin', path: findProgram('grpc_cpp_plugin'), hint: 'apt-get install protobuf-compiler-grpc', confirmed: ['PLUGIN-EXECUTABLE-NAME'] },
  {
    name: 'protoc-gen-es', flag: 'plugin', path: findProgram('protoc-gen-es'), hint: 'npm install (devDependency @bufbuild/protoc-gen-es)',
    confirmed: ['PLUGIN-FEATURES-KNOWN-BITS', 'PLUGIN-RESPONSE-SCHEMA-TAGS'],
  },
  {
    name: 'protoc-gen-ts_proto', flag: 'plugin', path: findProgram('protoc-gen-ts_proto'), hint: 'npm install (devDependency ts-proto)',
    confirmed: ['PLUGIN-FEATURES-KNOWN-BITS', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-RESPONSE-SCHEMA-TAGS'],
  },
  {
    // A parameter it does not know comes back in `error` with exit status 0.
    name: 'protoc-gen-ts', flag: 'plugin', path: findProgram('protoc-gen-ts'), hint: 'npm install (devDependency @protobuf-ts/plugin)',
    vars: { plugin_error_parameter: 'no_such_option' }, confirmed: ['PLUGIN-FILE-TO-GENERATE'],
  },
  {
    name: 'protoc', flag: 'compiler', path: PROTOC, hint: 'apt-get install protobuf-compiler',
    confirmed: ['PLUGIN-COMPILER-INSERTION-PLACEMENT', 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS', 'PLUGIN-COMPILER-NAME-RELATIVE', 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR', 'PLUGIN-COMPILER-OUTPUT-INSIDE'],
  },
];

describe.skipIf(built.skip)('plugin suite against real peers', () => {
  for (const peer of peers) {
    const req = requirePeer(peer.name, peer.path !== undefined, peer.hint);
    declarePeer(req);
    it.skipIf(req.skip)(`${peer.name}: fails only its confirmed deviations (${peer.confirmed.join(', ') || 'none'})`, async () => {
      const report = join(work, `${peer.name}.json`);
      // Verdicts only: shrinking the counterexample of a confirmed finding changes no verdict. The
      // peer's side only: the other side would run the reference (the sweep in faults.test.ts has it).
      const args = ['run', '--suite-module', suiteModule, '--suite', 'plugin', '--side', peer.flag === 'plugin' ? 'plugin' : 'compiler', `--${peer.flag}`, peer.path ?? '', '--seed', '11', '--no-shrink', '--no-color', '--report', `json=${report}`];
      if (peer.vars) {
        const profile = join(work, `${peer.name}.yaml`);
        writeFileSync(profile, `name: ${peer.name}\nsuites:\n  plugin:\n    vars:\n${Object.entries(peer.vars).map(([k, v]) => `      ${k}: ${JSON.stringify(v)}\n`).join('')}`);
        args.push('--target', profile);
      }
      const r = await runCli(args, { cwd: process.cwd() });
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as { requirements: { id: string; status: string }[]; suites: { cases: { id: string; outcome: string; reason?: string }[] }[] };
      const failed = parsed.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort();
      expect(failed, `${r.stdout}${r.stderr}`).toEqual([...peer.confirmed].sort());
      const errored = parsed.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`);
      expect(errored).toEqual([]);
    }, 600_000);
  }
});

/** A request as protoc builds it for shop.proto, captured by a plugin that only records it. */
function capturedRequest(): Buffer {
  const dir = mkdtempSync(join(work, 'capture-'));
  const script = join(dir, 'protoc-gen-capture');
  writeFileSync(script, `#!/bin/sh\ncat > '${join(dir, 'request.bin')}'\n`, { mode: 0o755 });
  const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--plugin=protoc-gen-capture=${script}`, `--capture_out=${dir}`, 'shop.proto'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return readFileSync(join(dir, 'request.bin'));
}

/** An encoded CodeGeneratorResponse in protoc's text format. */
function decodeResponseText(bytes: Buffer): string {
  return spawnSync(protocCommand, ['--decode=google.protobuf.compiler.CodeGeneratorResponse', '-I/usr/include', 'google/protobuf/compiler/plugin.proto'], { input: bytes, encoding: 'utf8' }).stdout;
}

function decodedResponse(plugin: string, request: Buffer): string {
  return decodeResponseText(spawnSync(plugin, [], { input: request }).stdout);
}

/** Every file under `dir`, as sorted paths relative to it. */
function filesUnder(dir: string): string[] {
  return spawnSync('find', [dir, '-type', 'f', '-printf', '%P\n'], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
}

describe('findings confirmed directly, without the harness', () => {
  const grpc = requirePeer('grpc_cpp_plugin', findProgram('grpc_cpp_plugin') !== undefined && PROTOC !== undefined, 'apt-get install protobuf-compiler-grpc protobuf-compiler');
  declarePeer(grpc);
  it.skipIf(grpc.skip)('grpc_cpp_plugin is not named protoc-gen-NAME: --grpc_out does not find it, --plugin=protoc-gen-grpc=... does', () => {
    const out = mkdtempSync(join(work, 'grpc-'));
    const byFlag = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--grpc_out=${out}`, 'shop.proto'], { encoding: 'utf8' });
    expect(byFlag.status).toBe(1);
    expect(byFlag.stderr).toContain('protoc-gen-grpc: program not found or is not executable');
    const named = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--plugin=protoc-gen-grpc=${findProgram('grpc_cpp_plugin') ?? ''}`, `--grpc_out=${out}`, 'shop.proto'], { encoding: 'utf8' });
    expect(named.status, named.stderr).toBe(0);
    expect(filesUnder(out)).toEqual(['shop.grpc.pb.cc', 'shop.grpc.pb.h']);
  });

  const protoc = requirePeer('protoc', PROTOC !== undefined && existsSync('/usr/include/google/protobuf/compiler/plugin.proto'), 'apt-get install protobuf-compiler libprotoc-dev');
  declarePeer(protoc);
  it.skipIf(protoc.skip)('protoc writes a File named "../a.txt" outside the output folder, with exit status 0', () => {
    const dir = mkdtempSync(join(work, 'escape-'));
    const response = spawnSync(protocCommand, ['--encode=google.protobuf.compiler.CodeGeneratorResponse', '-I/usr/include', 'google/protobuf/compiler/plugin.proto'], { input: 'file { name: "../a.txt" content: "hello\\n" }' }).stdout;
    writeFileSync(join(dir, 'response.bin'), response);
    writeFileSync(join(dir, 'plug.sh'), `#!/bin/sh\ncat >/dev/null\ncat '${join(dir, 'response.bin')}'\n`, { mode: 0o755 });
    mkdirSync(join(dir, 'out'));
    const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--plugin=protoc-gen-x=${join(dir, 'plug.sh')}`, `--x_out=${join(dir, 'out')}`, 'plain.proto'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('hello\n');
    expect(filesUnder(join(dir, 'out'))).toEqual(['']);
  });

  const go = requirePeer('protoc-gen-go', findProgram('protoc-gen-go') !== undefined && PROTOC !== undefined, 'apt-get install protoc-gen-go protobuf-compiler');
  declarePeer(go);
  it.skipIf(go.skip)('protoc-gen-go reports a schema without go_package with exit status 1, not in CodeGeneratorResponse.error', () => {
    const out = join(work, 'go-out');
    mkdirSync(out, { recursive: true });
    const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--go_out=${out}`, 'plain.proto'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('protoc-gen-go: unable to determine Go import path for "plain.proto"');
    expect(r.stderr).toContain('--go_out: protoc-gen-go: Plugin failed with status code 1.');
  });

  const plugInclude = existsSync('/usr/include/google/protobuf/compiler/plugin.proto');
  for (const [name, names] of [['protoc-gen-es', ['shop_pb.js', 'shop_pb.d.ts']], ['protoc-gen-ts_proto', ['common.ts', 'shop.ts']]] as const) {
    const peer = requirePeer(name, findProgram(name) !== undefined && PROTOC !== undefined && plugInclude, 'npm install; apt-get install protobuf-compiler libprotoc-dev');
    declarePeer(peer);
    it.skipIf(peer.skip)(`${name} answers supported_features 3 (bit 2 is no value of this revision's Feature enum); its files: ${names.join(', ')}`, () => {
      const text = decodedResponse(findProgram(name) ?? name, capturedRequest());
      expect(text).toMatch(/^supported_features: 3$/m);
      expect([...text.matchAll(/^ {2}name: "([^"]+)"$/gm)].map((m) => m[1])).toEqual([...names]);
    });
  }

  const tsProto = requirePeer('protoc-gen-ts_proto', findProgram('protoc-gen-ts_proto') !== undefined && PROTOC !== undefined, 'npm install (devDependency ts-proto)');
  declarePeer(tsProto);
  it.skipIf(tsProto.skip)('protoc-gen-ts_proto generates common.ts for the import of shop.proto unless emitImportedFiles=false', () => {
    const run = (opt: string[]): string[] => {
      const out = mkdtempSync(join(work, 'tsp-'));
      const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--plugin=protoc-gen-ts_proto=${findProgram('protoc-gen-ts_proto') ?? ''}`, `--ts_proto_out=${out}`, ...opt, 'shop.proto'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return filesUnder(out);
    };
    expect(run([])).toEqual(['common.ts', 'shop.ts']);
    expect(run(['--ts_proto_opt=emitImportedFiles=false'])).toEqual(['shop.ts']);
  });

  const protobufTs = requirePeer('protoc-gen-ts', findProgram('protoc-gen-ts') !== undefined && PROTOC !== undefined, 'npm install (devDependency @protobuf-ts/plugin)');
  it.skipIf(protobufTs.skip)('protoc-gen-ts (@protobuf-ts/plugin) generates google/protobuf/timestamp.ts for an import of it, asked for event.proto only', () => {
    const out = mkdtempSync(join(work, 'pbts-'));
    const r = spawnSync(protocCommand, ['-I', fromRoot('suites', 'plugin', 'protos'), `--plugin=protoc-gen-ts=${findProgram('protoc-gen-ts') ?? ''}`, `--ts_out=${out}`, 'event.proto'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(filesUnder(out)).toEqual(['event.ts', 'google/protobuf/timestamp.ts']);
  });
  it.skipIf(protobufTs.skip)('protoc-gen-ts reports an unknown parameter in CodeGeneratorResponse.error and exits 0 (it conforms there)', () => {
    const request = capturedRequest();
    // Field 2 (parameter) appended: the last occurrence of a string field wins.
    const parameter = Buffer.from('no_such_option');
    const withParameter = Buffer.concat([request, Buffer.from([0x12, parameter.length]), parameter]);
    const run = spawnSync(findProgram('protoc-gen-ts') ?? 'protoc-gen-ts', [], { input: withParameter });
    expect(run.status).toBe(0);
    expect(decodeResponseText(run.stdout)).toMatch(/^error: "ParameterError\\n\\nOption \\"no_such_option\\" not recognized/m);
  });
});
