import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { compilerArgv, compilerEnv, pluginCommand } from '../../../suites/plugin/checks/support.js';
import { runCompiler } from '../../../suites/plugin/checks/compiler-harness.js';
import { loadFixture } from '../../../suites/plugin/checks/fixtures.js';
import type { CheckExec } from '../../../src/engine/suite-module.js';
import { suite } from '../../../suites/plugin/index.js';

/**
 * `--plugin`, `--compiler`, vars.plugin_command and vars.compiler_command all become argument
 * vectors by the one command-line rule: a `.js` file runs with this Node, and an existing path
 * with a space in it is one file, not two words.
 */

const dir = mkdtempSync(join(tmpdir(), 'specgate-plugin-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'with space'));
const script = join(dir, 'with space', 'gen.js');
writeFileSync(script, '');

function ctxWith(vars: Record<string, unknown>, execConfig?: CheckContext['execConfig']): CheckContext {
  return { vars, execConfig } as CheckContext;
}

const pluginFlag = suite.targetOptions?.find((o) => o.flag === 'plugin');
const compilerFlag = suite.targetOptions?.find((o) => o.flag === 'compiler');

describe('plugin suite command forms', () => {
  it('runs a --plugin .js path with a space in it as one file with this Node', () => {
    expect(pluginFlag?.exec?.(script)).toEqual({ command: process.execPath, args: [script] });
    expect(pluginFlag?.vars(script)).toEqual({ plugin_command: script });
  });

  it('gives vars.plugin_command the same executable as the flag, and the flag\'s executable to plugin_command', () => {
    const complete = suite.completeTarget;
    if (!complete) throw new TypeError('the plugin suite completes targets');
    expect(complete({ vars: { plugin_command: script } }).exec).toEqual({ command: process.execPath, args: [script] });
    expect(complete({ vars: { plugin_command: [script, '--flag'] } }).exec).toEqual({ command: process.execPath, args: [script, '--flag'] });
    expect(complete({ vars: {}, exec: { command: '/bin/gen', args: ['-x'] } }).vars['plugin_command']).toEqual(['/bin/gen', '-x']);
    expect(complete({ vars: { plugin_command: '${env:GEN}' } }).exec).toBeUndefined();
  });

  it('starts the compiler with vars.compiler_env over specgate\'s environment, and refuses values that are not text', async () => {
    expect(compilerEnv(ctxWith({}))).toEqual({});
    expect(compilerEnv(ctxWith({ compiler_env: { NODE_EXTRA_CA_CERTS: '', A: 'b' } }))).toEqual({ NODE_EXTRA_CA_CERTS: '', A: 'b' });
    for (const bad of ['A=b', ['A=b'], { A: 1 }]) expect(() => compilerEnv(ctxWith({ compiler_env: bad }))).toThrow(/vars.compiler_env must map variable names to string values/);
    const seen: CheckExec[] = [];
    await runCompiler(
      (spec) => {
        seen.push(spec);
        return Promise.resolve({ exitCode: 0, signal: null, stdout: new Uint8Array(0), stderr: '', durationMs: 0 });
      },
      { compiler: ['protoc'], env: compilerEnv(ctxWith({ compiler_env: { NODE_EXTRA_CA_CERTS: '' } })), generators: [], descriptorSet: loadFixture('shop').set, files: ['shop.proto'] },
    );
    expect(seen.map((s) => [s.command, s.env])).toEqual([[['protoc'], { NODE_EXTRA_CA_CERTS: '' }]]);
  });

  it('turns --compiler and vars.compiler_command into argv by the same rule', () => {
    const vars = compilerFlag?.vars(script) ?? {};
    expect(compilerArgv(ctxWith(vars))).toEqual([process.execPath, script]);
    expect(compilerArgv(ctxWith({ compiler_command: ['protoc', '-I', 'a b'] }))).toEqual(['protoc', '-I', 'a b']);
    expect(compilerArgv(ctxWith({ compiler_command: 'protoc --experimental_allow_proto3_optional' }))).toEqual(['protoc', '--experimental_allow_proto3_optional']);
  });

  it('runs the target executable when there is one, else vars.plugin_command', () => {
    expect(pluginCommand(ctxWith({ plugin_command: 'ignored' }, { command: '/bin/gen' }))).toEqual({});
    expect(pluginCommand(ctxWith({ plugin_command: script }))).toEqual({ command: [process.execPath, script] });
  });

  it('says which flag or variable to give when no command is set', () => {
    expect(() => compilerArgv(ctxWith({}))).toThrow(SpecgateError);
    expect(() => compilerArgv(ctxWith({}))).toThrow(/--compiler <executable>/);
    expect(() => pluginCommand(ctxWith({ plugin_command: '' }))).toThrow(/--plugin <executable>/);
  });
});
