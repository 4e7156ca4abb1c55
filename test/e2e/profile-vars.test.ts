/**
 * A suite's declared target variables through the command line: `specgate list --vars` shows
 * each with its description and who reads it; a profile that misspells one stops the run with
 * exit 2 and the name it probably meant; a reader that closes the pipe early ends the command
 * quietly. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, assertBuilt, runCli, tempDir, writeProfile } from './cli.js';

describe('declared suite variables', () => {
  const tmp = tempDir('specgate-profile-vars-');
  afterAll(() => tmp.remove());

  it('list --vars names every variable with its description, secrecy and readers', async () => {
    assertBuilt();
    const res = await runCli(['list', '--suite', 'affiliate', '--vars'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^affiliate: 9 variables \(target profile suites\.affiliate\.vars\)$/m);
    expect(res.stdout).toMatch(/^ {2}api_key \(secret\) — A valid API key, sent in header Api-Key\n {6}read by the API table \(every operation\) and 1 case\(s\): autologin-path$/m);
    expect(res.stdout).toMatch(/^ {2}unlisted_source — .*\n {6}read by 1 case\(s\): ip-whitelist$/m);
    const json = await runCli(['list', '--suite', 'affiliate', '--vars', '--json'], { cwd: tmp.dir });
    const parsed = JSON.parse(json.stdout) as { name: string; vars: { name: string; secret: boolean; apiTable: boolean; cases: string[] }[] }[];
    expect(parsed[0]?.vars.find((v) => v.name === 'lead_request_id')).toMatchObject({ secret: false, apiTable: false, cases: expect.arrayContaining(['autologin-path']) });
  });

  it('a profile variable the suite does not declare, close to one it does, stops the run with exit 2 and a suggestion', async () => {
    const profile = writeProfile(tmp.dir, 'typo', {
      name: 'typo',
      suites: { affiliate: { vars: { affiliate_url: 'http://127.0.0.1:9', api_key: 'k', lead_request_id: 'x', from_date: '2026-01-01 00:00:00', to_date: '2026-02-01 00:00:00', refusal_stauts: 401 } } },
    });
    const res = await runCli(['run', '--suite', 'affiliate', '--target', profile], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${profile}:`);
    expect(res.stderr).toContain('vars.refusal_stauts is not a variable of suite affiliate; did you mean vars.refusal_status? (`specgate list --suite affiliate --vars` lists them)');
  });

  it('a variable far from every declared name is left alone (a typed check may read it)', async () => {
    const profile = writeProfile(tmp.dir, 'extra', {
      name: 'extra',
      suites: { affiliate: { vars: { affiliate_url: 'http://127.0.0.1:9', api_key: 'k', lead_request_id: 'x', from_date: '2026-01-01 00:00:00', to_date: '2026-02-01 00:00:00', my_own_note: 'n' } } },
    });
    const res = await runCli(['run', '--suite', 'affiliate', '--target', profile, '--case', 'autologin-path'], { cwd: tmp.dir });
    expect(res.stderr).not.toMatch(/my_own_note/);
  });

  it('ends quietly when its reader closes the pipe early', () => {
    // `true` reads nothing and exits at once: every write specgate makes meets a closed pipe
    const res = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" list --vars --json | true`], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(res.stderr).toBe('');
  });
});
