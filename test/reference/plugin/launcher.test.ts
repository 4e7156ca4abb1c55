import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledScript, EXTRA_CA_CERTS_VAR, referenceCommand, writeScriptedPlugin } from '../../../reference/plugin/launcher.js';
import { findOnPath } from '../../../reference/plugin/search-path.js';

describe('writeScriptedPlugin', () => {
  const root = mkdtempSync(join(tmpdir(), 'specgate-launcher-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Quotes and spaces in every path the script names.
  const dir = join(root, "it's a dir");
  mkdirSync(dir);
  const response = join(dir, "resp 'x'.pb");
  const answer = Buffer.from([0x0a, 0x00, 0xff, 0xfe, 0x0a, 0x24, 0x0d, 0x0a]);
  writeFileSync(response, answer);
  const request = Buffer.from([0x12, 0x00, 0x80, 0x7f, 0x0a, 0x2a]);

  it('saves the whole request and answers the prepared bytes unchanged, exit 0', () => {
    const record = join(dir, 'req $HOME.pb');
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-x', { response, record });
    const r = spawnSync(plugin, [], { input: request });
    expect(r.status).toBe(0);
    expect(Buffer.compare(r.stdout, answer)).toBe(0);
    expect(Buffer.compare(readFileSync(record), request)).toBe(0);
    expect(r.stderr.toString()).toBe('');
  });

  it('works when the compiler starts it with an empty environment', () => {
    const record = join(dir, 'req-env.pb');
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-e', { response, record });
    const r = spawnSync(plugin, [], { input: request, env: {} });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(Buffer.compare(r.stdout, answer)).toBe(0);
    expect(Buffer.compare(readFileSync(record), request)).toBe(0);
  });

  it('exits with the scripted status and writes the scripted stderr line', () => {
    const record = join(dir, 'req2.pb');
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-y', { response, record, exit: 3, stderr: "failing as asked; it's $planned %s\\n" });
    const r = spawnSync(plugin, [], { input: request });
    expect(r.status).toBe(3);
    expect(Buffer.compare(r.stdout, answer)).toBe(0);
    expect(r.stderr.toString()).toBe("failing as asked; it's $planned %s\\n\n");
  });

  it('keeps its exit status when the reader closes stdout without reading', async () => {
    const big = join(dir, 'big.pb');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024, 1));
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-z', { response: big, record: join(dir, 'req3.pb'), exit: 5 });
    const child = spawn(plugin, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.destroy();
    child.stdin.end(request);
    const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 5, signal: null });
  });
});

describe('referenceCommand', () => {
  const script = compiledScript('plugin-main');
  const env = findOnPath('env', process.env);

  it('runs the compiled script with this Node when nothing slows its start', () => {
    expect(referenceCommand('plugin-main', { PATH: process.env['PATH'] ?? '' })).toEqual([process.execPath, script]);
    expect(referenceCommand('plugin-main', { PATH: process.env['PATH'] ?? '', [EXTRA_CA_CERTS_VAR]: '' })).toEqual([process.execPath, script]);
  });

  it.skipIf(env === undefined)('empties a certificate file Node would parse at every start, through env', () => {
    const argv = referenceCommand('plugin-main', { PATH: process.env['PATH'] ?? '', [EXTRA_CA_CERTS_VAR]: '/etc/ssl/certs/ca-certificates.crt' });
    expect(argv).toEqual([env, `${EXTRA_CA_CERTS_VAR}=`, process.execPath, script]);
  });

  it.skipIf(env === undefined)('starts a Node process that sees the variable empty and answers as the reference plugin', () => {
    const argv = referenceCommand('driver-main', { PATH: process.env['PATH'] ?? '', [EXTRA_CA_CERTS_VAR]: '/nonexistent/ca.pem' });
    const [program = '', ...args] = argv;
    // a file Node cannot read would be warned about on stderr; emptied, nothing is read
    const r = spawnSync(program, [...args, '--version'], { env: { ...process.env, [EXTRA_CA_CERTS_VAR]: '/nonexistent/ca.pem' } });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toMatch(/^specgate-plugin-driver /);
    expect(r.stderr.toString()).toBe('');
  });
});
