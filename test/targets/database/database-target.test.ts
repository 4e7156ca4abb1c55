/**
 * How a target provides its database: a profile section's `database:` (opened lazily, password
 * hidden, closed with the target) or the embedded reference's own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { prepareTarget } from '../../../src/engine/target-setup.js';
import type { DatabaseTarget } from '../../../src/targets/database/types.js';
import { loadProfile } from '../../../src/targets/profile.js';
import type { HttpClient } from '../../../src/targets/types.js';
import { tempDir } from '../../e2e/cli.js';

const noHttp = (): HttpClient => ({ send: () => Promise.reject(new Error('no request expected')), close: async () => {} });
const tmp = tempDir('specgate-db-target-');
afterAll(() => tmp.remove());

describe('a target database', () => {
  it('comes from a profile section: URL expressions resolved, the password a secret, nothing contacted yet', async () => {
    const file = join(tmp.dir, 'db.yaml');
    writeFileSync(file, 'suites:\n  ledger:\n    vars: { db_host: 127.0.0.1 }\n    database: { url: "postgres://app:${env:LEDGER_PW}@${db_host}:1/ledger", timeoutMs: 500 }\n');
    const profile = loadProfile(file, { LEDGER_PW: 'pw-from-env-77' });
    const section = profile.suites['ledger'];
    expect(section?.database).toEqual({ url: 'postgres://app:pw-from-env-77@${db_host}:1/ledger', timeoutMs: 500 });
    const module: SuiteModule = { name: 'ledger', dir: tmp.dir };
    const { target } = await prepareTarget(module, { section, label: 'ledger db', secrets: profile.secrets }, { includeSlow: false, http: noHttp });
    expect(target.database?.description).toBe('postgres://app@127.0.0.1:1/ledger');
    expect(target.secrets).toContain('pw-from-env-77');
    const e = await target.database?.query('select 1', []).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SG_TARGET_UNREACHABLE' });
    await target.stop();
  });

  it('refuses a profile database URL without a scheme at load time', () => {
    const file = join(tmp.dir, 'bad.yaml');
    writeFileSync(file, 'suites:\n  ledger:\n    database: { url: "127.0.0.1:5432/ledger" }\n');
    expect(() => loadProfile(file, {})).toThrow(/bad\.yaml:3:\d+: .*database\.url/);
  });

  it('comes from the embedded reference when it has one', async () => {
    const calls: string[] = [];
    const db: DatabaseTarget = { description: 'in-memory', query: async (sql) => (calls.push(sql), { rows: [], rowCount: 0, fields: [] }), close: async () => {} };
    const module: SuiteModule = { name: 'ledger', dir: tmp.dir, reference: { start: async () => ({ description: 'ref', vars: {}, database: db, stop: async () => {} }) } };
    const { target } = await prepareTarget(module, { section: undefined, label: 'reference', secrets: [] }, { includeSlow: false, http: noHttp });
    expect(target.clock).toBeInstanceOf(VirtualClock);
    await target.database?.query('select 1', []);
    expect(calls).toEqual(['select 1']);
  });
});
