import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMONJS_BUILD, compiledScript, EXTRA_CA_CERTS_VAR, referenceCommand, referenceEnv, SCRIPTED_PLUGIN, writeScriptedPlugin } from '../../../reference/plugin/launcher.js';
import { encodeDescriptorSet, encodeRequest } from '../../../reference/plugin/codec.js';
import { pluginReference } from '../../../reference/plugin/reference-target.js';
import { fromRoot } from '../../../src/paths.js';
import { loadFixture, requestFor } from '../../../suites/plugin/checks/fixtures.js';

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

describe('writeScriptedPlugin writes nothing executable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-launcher-busy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const response = join(dir, 'resp.pb');
  writeFileSync(response, Buffer.from([0x0a, 0x01, 0x41]));

  it('makes each plugin a link to the shipped script, with its data in a file nobody runs', () => {
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-l', { response, record: join(dir, 'l.pb') });
    expect(lstatSync(plugin).isSymbolicLink()).toBe(true);
    expect(realpathSync(plugin)).toBe(realpathSync(SCRIPTED_PLUGIN));
    for (const name of readdirSync(dir)) {
      const st = lstatSync(join(dir, name));
      if (st.isFile()) expect([name, st.mode & 0o111]).toEqual([name, 0]);
    }
  });

  // A process forked by another thread holds every file open at that moment until it execs.
  // Holding the files open for writing here is that moment made to last.
  it('runs while the files it was made from are still held open for writing', () => {
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-h', { response, record: join(dir, 'h.pb') });
    const held = readdirSync(dir).map((n) => join(dir, n)).filter((p) => lstatSync(p).isFile()).map((p) => openSync(p, 'r+'));
    try {
      const r = spawnSync(plugin, [], { input: Buffer.from([0x12, 0x00]) });
      expect(r.error).toBeUndefined();
      expect(r.status, r.stderr?.toString()).toBe(0);
      expect([...r.stdout]).toEqual([0x0a, 0x01, 0x41]);
    } finally {
      for (const fd of held) closeSync(fd);
    }
  });

  it('prints no stderr line it was not given, whatever the environment holds', () => {
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-quiet', { response, record: join(dir, 'quiet.pb') });
    const r = spawnSync(plugin, [], { input: Buffer.from([0x01]), env: { ...process.env, sg_stderr: 'leaked' } });
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toBe('');
  });

  it('says so and exits 70 when run by another path than its link (its data not beside it)', () => {
    writeScriptedPlugin(dir, 'protoc-gen-moved', { response, record: join(dir, 'moved.pb') });
    const r = spawnSync(realpathSync(join(dir, 'protoc-gen-moved')), [], { input: Buffer.from([0x01]) });
    expect(r.status).toBe(70);
    expect(r.stderr.toString()).toContain('scripted plugin: no data at');
    expect(r.stdout.length).toBe(0);
  });

  // Linux refuses to run a file open for writing; elsewhere there is no such refusal to show.
  it.skipIf(process.platform !== 'linux')('control: a script written as a file of its own cannot run while held open for writing (ETXTBSY)', () => {
    const script = join(dir, 'own-script');
    writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const fd = openSync(script, 'r+');
    try {
      const r = spawnSync(script, []);
      expect((r.error as NodeJS.ErrnoException | undefined)?.code).toBe('ETXTBSY');
    } finally {
      closeSync(fd);
    }
    expect(spawnSync(script, []).status).toBe(0);
  });

  it('is made again in place under the same name, doing what it was made to do last', () => {
    writeScriptedPlugin(dir, 'protoc-gen-again', { response, record: join(dir, 'a1.pb'), exit: 4 });
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-again', { response, record: join(dir, 'a2.pb') });
    const r = spawnSync(plugin, [], { input: Buffer.from([0x01]) });
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'a2.pb'))).toBe(true);
    expect(existsSync(join(dir, 'a1.pb'))).toBe(false);
  });

  it('ships the script with its mode bits', () => {
    expect(statSync(SCRIPTED_PLUGIN).mode & 0o111).toBe(0o111);
  });
});

describe('the CommonJS build of the reference executables', () => {
  const esm = (name: string): string => fromRoot('dist', 'reference', 'plugin', `${name}.js`);
  const built = existsSync(compiledScript('plugin-main')) && existsSync(compiledScript('driver-main')) && existsSync(esm('plugin-main'));

  it.skipIf(!built)('is what compiledScript names, in a folder Node reads as CommonJS', () => {
    expect(compiledScript('plugin-main')).toBe(join(COMMONJS_BUILD, 'plugin-main.js'));
    expect(JSON.parse(readFileSync(join(COMMONJS_BUILD, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    // loaded with require (an ES module would throw ERR_REQUIRE_ESM); argv as when run as a script
    const r = spawnSync(process.execPath, ['-e', `process.argv.splice(1, 0, 'driver-main'); require(${JSON.stringify(compiledScript('driver-main'))})`, '--', '--version']);
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toMatch(/^specgate-plugin-driver \d+\.\d+\.\d+\n$/);
  });

  it.skipIf(!built)('answers byte for byte what the ES module build answers', () => {
    const set = join(mkdtempSync(join(tmpdir(), 'specgate-commonjs-')), 'set.pb');
    writeFileSync(set, encodeDescriptorSet(loadFixture('shop').set));
    const inputs: [string, string[], Uint8Array | undefined][] = [
      ['plugin-main', [], encodeRequest(requestFor(loadFixture('shop')))],
      ['plugin-main', [], encodeRequest(requestFor(loadFixture('shop'), { parameter: 'bogus' }))],
      ['plugin-main', [], Uint8Array.from([0x0f, 0x0f])],
      ['driver-main', ['--version'], undefined],
      ['driver-main', [`--descriptor_set_in=${set}`, '--x_out=/no/such/dir', 'shop.proto'], undefined],
      ['driver-main', ['--bogus'], undefined],
    ];
    for (const [name, args, input] of inputs) {
      const run = (script: string) => spawnSync(process.execPath, [script, ...args], input ? { input } : {});
      const a = run(compiledScript(name as 'plugin-main' | 'driver-main'));
      const b = run(esm(name));
      expect({ status: a.status, stdout: a.stdout.toString('hex'), stderr: a.stderr.toString() }).toEqual({ status: b.status, stdout: b.stdout.toString('hex'), stderr: b.stderr.toString() });
    }
    rmSync(join(set, '..'), { recursive: true, force: true });
  });
});

describe('referenceCommand and referenceEnv', () => {
  const script = compiledScript('plugin-main');
  const root = mkdtempSync(join(tmpdir(), 'specgate-lean-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('run the compiled script with this Node, the command line alone', () => {
    expect(referenceCommand('plugin-main')).toEqual([process.execPath, script]);
  });

  it('empty a certificate file Node would parse at every start, in the environment only', () => {
    expect(referenceEnv({ PATH: '/bin' })).toEqual({});
    expect(referenceEnv({ [EXTRA_CA_CERTS_VAR]: '' })).toEqual({});
    expect(referenceEnv({ [EXTRA_CA_CERTS_VAR]: '/etc/ssl/certs/ca-certificates.crt' })).toEqual({ [EXTRA_CA_CERTS_VAR]: '' });
  });

  it.skipIf(!existsSync(compiledScript('driver-main')))('start a driver that sees the variable empty, and a plugin it runs inherits it empty', async () => {
    const running = await pluginReference.start({} as Parameters<typeof pluginReference.start>[0]);
    const compiler = running.vars['compiler_command'] as string[];
    const leanEnv = running.vars['compiler_env'] as Record<string, string>;
    // what a report shows: the plain command lines
    expect(compiler).toEqual([process.execPath, compiledScript('driver-main')]);
    expect(running.vars['plugin_command']).toEqual([process.execPath, script]);
    expect(running.exec?.env).toEqual(leanEnv);
    expect(leanEnv).toEqual(referenceEnv());
    // a process environment that names a certificate file (a file Node cannot read would be warned of)
    const outer = { ...process.env, [EXTRA_CA_CERTS_VAR]: '/nonexistent/ca.pem' };
    const seen = join(root, 'seen.txt');
    const plugin = join(root, 'protoc-gen-env');
    writeFileSync(plugin, `#!/bin/sh\ncat > /dev/null\nprintf '%s' "\${${EXTRA_CA_CERTS_VAR}-unset}" > '${seen}'\n`, { mode: 0o755 });
    const set = join(root, 'set.pb');
    const fixture = loadFixture('shop');
    writeFileSync(set, encodeDescriptorSet(fixture.set));
    mkdirSync(join(root, 'out'));
    const [program = '', ...lead] = compiler;
    // the compiler's environment as the suite builds it: specgate's own, then var compiler_env
    const lean = { ...outer, ...referenceEnv(outer) };
    const r = spawnSync(program, [...lead, `--descriptor_set_in=${set}`, `--plugin=protoc-gen-env=${plugin}`, `--env_out=${join(root, 'out')}`, ...(fixture.file_to_generate ?? [])], { env: lean, cwd: root });
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe('');
    // without it the plugin would have seen the file named
    const plain = spawnSync(program, [...lead, `--descriptor_set_in=${set}`, `--plugin=protoc-gen-env=${plugin}`, `--env_out=${join(root, 'out')}`, ...(fixture.file_to_generate ?? [])], { env: outer, cwd: root });
    expect(plain.status, plain.stderr.toString()).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe('/nonexistent/ca.pem');
    await running.stop();
  });
});
