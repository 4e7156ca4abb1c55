import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compiledScript } from '../../../reference/plugin/launcher.js';
import { closure, DRIVER_VERSION, parseArgs, runDriver, UsageError, versionLine } from '../../../reference/plugin/driver.js';
import { createExecRunner } from '../../../src/targets/exec-runner.js';
import { runCompiler, viaRunner, type ScriptedGenerator } from '../../../suites/plugin/checks/compiler-harness.js';
import { expectedOutcome, judgeCompiler } from '../../../suites/plugin/checks/compiler-verdict.js';
import { loadFixture } from '../../../suites/plugin/checks/fixtures.js';
import { decodeRequest } from '../../../reference/plugin/codec.js';
import { fieldOrder } from '../../../reference/plugin/wire.js';
import { fixed } from './response-cases.js';

const driver = [process.execPath, compiledScript('driver-main')];
const built = existsSync(compiledScript('driver-main'));
const runner = createExecRunner();

async function run(generators: ScriptedGenerator[], fixtureName = 'shop', files?: string[]) {
  const fixture = loadFixture(fixtureName);
  const inv = { compiler: driver, generators, descriptorSet: fixture.set, files: files ?? fixture.file_to_generate };
  const outcome = await runCompiler(viaRunner(runner), inv);
  return { outcome, findings: judgeCompiler(expectedOutcome(inv, outcome.sandbox), outcome, 'TREE') };
}

describe('reference driver: command line', () => {
  it('parses protoc\'s flags, joining out-parameters and options in order', () => {
    const a = parseArgs(['--descriptor_set_in=s.pb', '--plugin=protoc-gen-x=/p/x', '--x_out=k=v:out', '--x_opt=o1', '--y_out=o2', '--x_opt=o2', 'a.proto']);
    expect(a.plugins.get('x')).toBe('/p/x');
    expect(a.outputs).toEqual([{ name: 'x', dir: 'out', parameter: ['k=v', 'o1', 'o2'] }, { name: 'y', dir: 'o2', parameter: [] }]);
    expect(a.files).toEqual(['a.proto']);
    expect(() => parseArgs(['--x_out=o', 'a.proto'])).toThrow(UsageError);
    expect(() => parseArgs(['--descriptor_set_in=s', '-Ifoo', '--x_out=o', 'a.proto'])).toThrow(/Unknown flag/);
  });
  it('orders proto_file topologically and refuses missing imports', () => {
    const pool = new Map([['a', { name: 'a', dependency: ['b'] }], ['b', { name: 'b', dependency: ['c'] }], ['c', { name: 'c' }]]);
    expect(closure(['a'], pool).map((f) => f.name)).toEqual(['c', 'b', 'a']);
    pool.delete('c');
    expect(() => closure(['a'], pool)).toThrow(/c: File not found/);
  });
  it('prints with --version the version it sends as compiler_version', () => {
    expect(runDriver(['--version'])).toEqual({ status: 0, stderr: [], stdout: [`specgate-plugin-driver ${DRIVER_VERSION.major}.${DRIVER_VERSION.minor}.${DRIVER_VERSION.patch}`] });
    expect(versionLine({ major: 4, minor: 0, patch: 1, suffix: 'rc2' })).toBe('specgate-plugin-driver 4.0.1-rc2');
  });
});

describe.skipIf(!built)('reference driver: agrees with the model', () => {
  it.each(fixed)('$title', async ({ responses, fixture }) => {
    const r = await run(responses.map((response, i) => ({ name: `g${i + 1}`, response })), fixture);
    expect(r.findings).toEqual([]);
  });
  it.each(['../x', '/abs', './a', 'a\\b'])('rejects the name %j and writes nothing', async (name) => {
    const r = await run([{ name: 'g', response: { file: [{ name: 'ok', content: 'x' }, { name, content: 'x' }] } }]);
    expect(r.outcome.exitCode).toBe(1);
    expect(r.findings).toEqual([]);
    expect(r.outcome.stderr).toMatch(/--g_out: file name/);
  });
  it('fails when a plugin fails or answers garbage', async () => {
    const failing = await run([{ name: 'g', response: { file: [{ name: 'a', content: 'x' }] }, exit: 3 }]);
    expect(failing.outcome.exitCode).toBe(1);
    expect(failing.outcome.stderr).toMatch(/Plugin failed with status code 3/);
    const garbage = await run([{ name: 'g', responseBytes: Uint8Array.from([0x0a, 0x09]) }]);
    expect(garbage.outcome.stderr).toMatch(/unparseable/);
    expect(garbage.findings).toEqual([]);
  });
  it('finds plugins on the search path and sends a protoc-shaped request', async () => {
    const r = await run([{ name: 'g', viaSearchPath: true, parameter: 'a=1', options: ['b'], response: { file: [{ name: 'a', content: 'x' }] } }]);
    expect(r.outcome.exitCode).toBe(0);
    const bytes = r.outcome.requests.get('g');
    expect(bytes).toBeDefined();
    const req = decodeRequest(bytes ?? new Uint8Array());
    expect(req.file_to_generate).toEqual(['shop.proto']);
    expect(req.parameter).toBe('a=1,b');
    expect(req.proto_file?.map((f) => f.name)).toEqual(['common.proto', 'shop.proto']);
    expect(req.compiler_version).toEqual({ major: 0, minor: 1, patch: 0, suffix: '' });
    expect(fieldOrder(bytes ?? new Uint8Array()).at(-1)).toBe(15);
  });
});
