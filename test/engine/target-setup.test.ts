/**
 * A profile's suite section, from the file to the running target: the loader builds the
 * section, the plan hands it on unchanged (flags and the suite's completeTarget fill it in),
 * and prepareTarget starts the external target from the same section.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planTargets } from '../../cli/target-choice.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { prepareTarget } from '../../src/engine/target-setup.js';
import type { HttpClient } from '../../src/targets/types.js';

const profile = join(fileURLToPath(new URL('../fixtures/targets/profiles/', import.meta.url)), 'acme.yaml');
const ENV = { ACME_CLIENT_ID: 'Iv1.8a61f9b3a7aba766', ACME_SECRET: 'sup3r-s3cret-value', ACME_BASIC: 'dXNlcjpwdw==' };

/** Preparing a target sends nothing: the clock hook is only called when a case lets time pass. */
const sent: unknown[] = [];
const noHttp = (): HttpClient => ({
  send: (req) => {
    sent.push(req);
    return Promise.reject(new Error('no request is expected here'));
  },
  close: async () => {},
});

/** Runs `fn` with the profile's environment variables set (the CLI reads process.env). */
function withEnv<T>(fn: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, ENV);
  try {
    return fn();
  } finally {
    process.env = saved;
  }
}

function module(name: string, extra: Partial<SuiteModule> = {}): SuiteModule {
  return { name, dir: '/nowhere', ...extra };
}

describe('a target section from profile to running target', () => {
  it('keeps header names, secrets, limits, clock hook and scripted agent of the profile', async () => {
    const plan = withEnv(() => planTargets([module('oauth'), module('plugin')], { suites: ['oauth'], target: profile, flags: {} }));
    const choice = plan.targets.oauth;
    expect(choice?.section?.http).toEqual({ timeoutMs: 5000, maxBodyBytes: 1048576, userAgent: 'specgate-ci' });
    expect(choice?.label).toBe('ACME auth server (staging)');
    if (!choice) return;
    const { target, timeMode } = await prepareTarget(module('oauth'), choice, { includeSlow: false, http: noHttp });
    expect(target.kind).toBe('profile');
    expect(target.headerNames).toEqual({ 'ctx-protocol-version': 'MCP-Protocol-Version' });
    expect(target.vars['api_url']).toBe('https://auth.acme.test/api');
    expect(new Set(target.secrets)).toEqual(new Set([ENV.ACME_CLIENT_ID, ENV.ACME_SECRET, ENV.ACME_BASIC, 'k1', '-----BEGIN KEY-----xyz']));
    expect(target.agent?.kind).toBe('scripted');
    expect(timeMode).toBe('hook');
    expect(sent).toEqual([]);
    await target.stop();
  });

  it("lets a flag and the suite's completeTarget fill in the same section", async () => {
    const plugin = module('plugin', {
      targetOptions: [{ flag: 'plugin', valueName: 'executable', description: 'the plugin', vars: (v) => ({ plugin_command: v }) }],
      completeTarget: ({ vars, exec }) => ({ vars: { ...vars, completed: exec?.command ?? 'none' }, ...(exec ? { exec } : {}) }),
    });
    const plan = withEnv(() => planTargets([module('oauth'), plugin], { suites: ['plugin'], target: profile, flags: { plugin: '/opt/protoc-gen-x' } }));
    const section = plan.targets.plugin?.section;
    expect(section?.vars).toEqual({ plugin_command: '/opt/protoc-gen-x', completed: join(profile, '..', 'bin/protoc-gen-acme') });
    expect(section?.exec?.args).toEqual(['--verbose']);
    expect(section?.agent).toEqual({ mode: 'interactive' });
  });
});
