import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTRA_CA_CERTS_VAR, referenceNodeCommand } from '../../src/targets/reference-node-command.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-refcmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A script that tells what it was started with. */
const script = join(dir, 'tell.js');
writeFileSync(script, `process.stdout.write(JSON.stringify({ ca: process.env.${EXTRA_CA_CERTS_VAR} ?? null, argv: process.argv.slice(1), other: process.env.OTHER ?? null }));\n`);

function run(argv: string[], env: NodeJS.ProcessEnv): { ca: string | null; argv: string[]; other: string | null } {
  const [exe, ...args] = argv;
  const r = spawnSync(exe ?? '', args, { env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { ca: string | null; argv: string[]; other: string | null };
}

describe.skipIf(process.platform === 'win32')('referenceNodeCommand', () => {
  it('is this Node and the script alone when no extra CA certificates are named', () => {
    expect(referenceNodeCommand(script, { PATH: '/bin' })).toEqual([process.execPath, script]);
    expect(referenceNodeCommand(script, { [EXTRA_CA_CERTS_VAR]: '' })).toEqual([process.execPath, script]);
  });

  it('starts the script with the extra CA certificates emptied, and the rest of the environment as it is', () => {
    const env = { PATH: process.env['PATH'] ?? '', OTHER: 'kept', [EXTRA_CA_CERTS_VAR]: join(dir, 'no-such-bundle.pem') };
    const argv = referenceNodeCommand(script, env);
    expect(argv.slice(-2)).toEqual([process.execPath, script]);
    const seen = run(argv, env);
    expect(seen).toEqual({ ca: '', argv: [script], other: 'kept' });
    // the same environment without the command's change: Node is given the bundle (and warns it is missing)
    expect(run([process.execPath, script], env).ca).toBe(env[EXTRA_CA_CERTS_VAR]);
  });
});
