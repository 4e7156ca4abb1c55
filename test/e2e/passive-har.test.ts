/**
 * `--target har:<file>` end to end: traffic recorded from real requests to the notes example
 * service is written as HAR 1.2, and the CLI judges it with the example suite — every
 * single-exchange verifier on the recorded answers, everything else untested with the reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotesServer, type RunningNotesServer } from '../../examples/notes/server.js';
import { fromRoot } from '../../src/paths.js';
import { runSuiteModule, type SuiteModuleRun } from '../helpers/suite-module-run.js';
import { recordSession } from '../helpers/notes-recording.js';
import { harFile } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, runCli, statusMap, tempDir, type JsonReport } from './cli.js';

const MODULE = fromRoot('dist/examples/notes/suite.js');
const TOKEN = 'har-recorded-token-5521';

async function judge(dir: string, har: string, extra: string[] = []): Promise<SuiteModuleRun & { report: JsonReport }> {
  const run = await runSuiteModule(dir, MODULE, 'notes', ['--target', `har:${har}`, ...extra]);
  if (!run.report) throw new Error(`the run wrote no JSON report (exit ${run.code}): ${run.stderr}${run.stdout}`);
  return { ...run, report: run.report };
}

const NEEDS_LIVE = 'skipped: passive target: needs live requests';

describe('passive target: a HAR recording judged by the notes suite', () => {
  const tmp = tempDir();
  let server: RunningNotesServer;
  let entries: Record<string, unknown>[];
  beforeAll(async () => {
    assertBuilt();
    server = await startNotesServer({ token: TOKEN });
    entries = await recordSession(server.url, TOKEN);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.remove();
  });

  it('judges what single exchanges show, leaves the rest untested with the reason, lists stray traffic', async () => {
    const har = join(tmp.dir, 'good.har');
    writeFileSync(har, JSON.stringify(harFile(entries), null, 2));
    const run = await judge(tmp.dir, har);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(statusMap(run.report)).toEqual({
      'NOTES-ROUTES': 'passed',
      'NOTES-SHAPES': 'passed',
      'NOTES-AUTH': 'passed',
      'NOTES-METHOD': 'untested',
      'NOTES-PAGE-DEFAULT': 'untested',
      'NOTES-PAGE-LIMIT': 'untested',
      'NOTES-PAGE-WALK': 'untested',
      'NOTES-BATCH': 'untested',
      'NOTES-LIFECYCLE': 'untested',
    });
    const reasons = Object.fromEntries(run.report.requirements.map((r) => [r.id, r.reason]));
    for (const id of ['NOTES-METHOD', 'NOTES-PAGE-DEFAULT', 'NOTES-PAGE-LIMIT', 'NOTES-PAGE-WALK', 'NOTES-BATCH', 'NOTES-LIFECYCLE']) expect(reasons[id]).toBe(NEEDS_LIVE);
    // only listNotes was asked without a token: the other operations' auth cases had nothing to judge
    expect(caseOf(run.report, 'auth-required-list-notes').outcome).toBe('passed');
    expect(caseOf(run.report, 'auth-required-get-note')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/no request without credentials of operation getNote/) });
    expect(run.stdout).toMatch(/1 recorded exchange\(s\) fit no operation of suite notes .*GET http:\/\/127\.0\.0\.1:\d+\/favicon\.ico/);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: '13', matched: '12' });
    expect(readFileSync(run.json, 'utf8') + run.stdout).not.toContain(TOKEN);
  });

  it('fails the requirements a recorded answer breaks, naming the entry', async () => {
    // the getNote answer (entry 2) as a faulty service would have sent it: no title
    const planted = structuredClone(entries) as { response: { content: { text: string } } }[];
    const answer = planted[2]?.response.content as { text: string };
    const note = JSON.parse(answer.text) as Record<string, unknown>;
    delete note['title'];
    answer.text = JSON.stringify(note);
    const har = join(tmp.dir, 'planted.har');
    writeFileSync(har, JSON.stringify(harFile(planted)));
    const run = await judge(tmp.dir, har);
    expect(run.code).toBe(1);
    expect(statusMap(run.report)).toMatchObject({ 'NOTES-ROUTES': 'failed', 'NOTES-SHAPES': 'failed', 'NOTES-AUTH': 'passed', 'NOTES-METHOD': 'untested' });
    const failure = caseOf(run.report, 'served-get-note').failures[0];
    expect(failure?.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/notes\/\S+ \(entry 2\): .*lacks title \(the 200 answer's body breaks schema notes\/note\)$/);
    expect(caseOf(run.report, 'served-create-note').outcome).toBe('passed');
  });

  it('leaves out an entry that breaks HAR 1.2 and judges the rest, naming the entry in a warning and the report', async () => {
    const broken = structuredClone(entries) as { request: Record<string, unknown> }[];
    delete broken[7]?.request['httpVersion'];
    const har = join(tmp.dir, 'broken.har');
    writeFileSync(har, JSON.stringify(harFile(broken), null, 2));
    const run = await judge(tmp.dir, har);
    expect(run.code).toBe(0);
    expect(statusMap(run.report)).toMatchObject({ 'NOTES-ROUTES': 'passed', 'NOTES-SHAPES': 'passed', 'NOTES-AUTH': 'passed', 'NOTES-METHOD': 'untested' });
    expect(run.stdout).toMatch(/1 of 13 recorded entries were left out: \S*broken\.har:\d+:\d+: entry 7: request: missing required key "httpVersion" \(not valid HAR 1\.2\); it is left out/);
    expect(run.report.suites[0]?.properties).toMatchObject({ exchanges: '12', entriesLeftOut: expect.stringMatching(/entry 7: request: missing required key "httpVersion"/) });
  });

  it('stops before running on a file that is not HAR (exit 2)', async () => {
    const har = join(tmp.dir, 'notes.txt');
    writeFileSync(har, 'GET /notes HTTP/1.1\n');
    const res = await runCli(['run', '--suite-module', MODULE, '--target', `har:${har}`, '--report', `json=${join(tmp.dir, 'never.json')}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/notes\.txt: not a HAR file: it is not JSON: it begins with "G", where a HAR file begins with "\{"; export the recording again as HAR/);
  });

  it('refuses a suite that describes no API (exit 2)', async () => {
    const har = join(tmp.dir, 'good.har');
    writeFileSync(har, JSON.stringify(harFile(entries)));
    const res = await runCli(['run', '--suite-module', MODULE, '--suite', 'plugin', '--target', `har:${har}`, '--report', `json=${join(tmp.dir, 'never.json')}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/suite plugin describes no HTTP API \(api\.yaml\)/);
  });
});
