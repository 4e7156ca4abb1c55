import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { decodeRequest, encodeMessage } from '../../../reference/plugin/codec.js';
import { TypeNames } from '../../../reference/plugin/schema.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import type { CodeGeneratorRequestValue, CodeGeneratorResponseValue, FileDescriptorSetValue } from '../../../generators/plugin/descriptor-types.js';
import { protocCommand } from '../../helpers/programs.js';

/** What protoc said about one descriptor set. */
export interface ProtocVerdict {
  status: number | null;
  stderr: string;
  /** The request protoc handed to a capturing plugin, decoded; absent when protoc refused the set. */
  request?: CodeGeneratorRequest;
  /** Files protoc wrote (relative name -> content), when it succeeded. */
  tree?: Map<string, string>;
}

/**
 * Runs real protoc on a descriptor set: `protoc --descriptor_set_in=set.pb --cap_out=out
 * <every file>`, where `protoc-gen-cap` stores the CodeGeneratorRequest it receives and answers a
 * response declaring FEATURE_PROTO3_OPTIONAL (bytes 0x10 0x01), so protoc also checks the
 * response path. protoc exits 0 only when it accepted every file of the set.
 */
export class ProtocEcho {
  private readonly dir = mkdtempSync(join(tmpdir(), 'specgate-protoc-'));
  private readonly plugin = join(this.dir, 'protoc-gen-cap');
  private readonly replier = join(this.dir, 'protoc-gen-reply');
  private counter = 0;

  constructor(private readonly protoc = protocCommand) {
    writeFileSync(this.plugin, `#!/bin/sh\ncat > "$SPECGATE_CAPTURE"\nprintf '\\020\\001'\n`);
    chmodSync(this.plugin, 0o755);
    // Answers a prepared response, whatever the request.
    writeFileSync(this.replier, `#!/bin/sh\ncat > "$SPECGATE_CAPTURE"\ncat "$SPECGATE_RESPONSE"\n`);
    chmodSync(this.replier, 0o755);
  }

  /** protoc running a plugin that answers `response` to `req`; the tree is what protoc wrote. */
  respond(req: CodeGeneratorRequestValue, response: CodeGeneratorResponseValue): ProtocVerdict {
    return this.run({ file: req.proto_file }, req.file_to_generate, req.parameter, encodeMessage(TypeNames.response, response));
  }

  /** protoc on every file of the set, in set order. */
  check(set: FileDescriptorSetValue): ProtocVerdict {
    return this.run(set, set.file.map((f) => f.name), undefined);
  }

  /** protoc on `proto_file` as the set, generating `file_to_generate` (in that order) with `parameter`. */
  request(req: CodeGeneratorRequestValue): ProtocVerdict {
    return this.run({ file: req.proto_file }, req.file_to_generate, req.parameter);
  }

  private run(set: FileDescriptorSetValue, files: readonly string[], parameter: string | undefined, response?: Uint8Array): ProtocVerdict {
    const work = join(this.dir, String(this.counter++));
    const out = join(work, 'out');
    mkdirSync(out, { recursive: true });
    const setPath = join(work, 'set.pb');
    const capture = join(work, 'request.bin');
    const responsePath = join(work, 'response.bin');
    writeFileSync(setPath, encodeMessage(TypeNames.fileDescriptorSet, set));
    if (response) writeFileSync(responsePath, response);
    const plugin = response ? this.replier : this.plugin;
    const r = spawnSync(
      this.protoc,
      [`--descriptor_set_in=${setPath}`, `--plugin=protoc-gen-cap=${plugin}`, `--cap_out=${out}`, ...(parameter === undefined ? [] : [`--cap_opt=${parameter}`]), ...files],
      { env: { ...process.env, SPECGATE_CAPTURE: capture, SPECGATE_RESPONSE: responsePath }, encoding: 'utf8', timeout: 30_000 },
    );
    const verdict: ProtocVerdict = { status: r.status, stderr: `${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
    if (r.status === 0) {
      verdict.request = decodeRequest(readFileSync(capture));
      verdict.tree = readTree(out);
    }
    rmSync(work, { recursive: true, force: true });
    return verdict;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function readTree(root: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else tree.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return tree;
}
