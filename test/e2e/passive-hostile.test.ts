/**
 * `--target har:<file>` on hostile and very large recordings: an entry that cannot be read is that
 * entry's problem — the rest of the recording is judged as before and every report is written —
 * and a recording of hundreds of MB is read in bounded memory.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotesServer, type RunningNotesServer } from '../../examples/notes/server.js';
import { fromRoot } from '../../src/paths.js';
import { recordSession } from '../helpers/notes-recording.js';
import { runSuiteModule } from '../helpers/suite-module-run.js';
import { validate, xmllint } from '../reporting/xmllint.js';
import { harEntry } from '../targets/har/har-builder.js';
import { assertBuilt, BIN, statusMap, tempDir } from './cli.js';

const MODULE = fromRoot('dist/examples/notes/suite.js');
const TOKEN = 'har-hostile-token-7310';
/** The size of the generated recording, in MB (SG_HAR_BIG_MB=300 for the full figure). */
const BIG_MB = Number(process.env['SG_HAR_BIG_MB'] ?? 100);
/** The peak resident memory allowed while judging it, in MB. */
const PEAK_LIMIT_MB = 400;

/** Writes a HAR file piece by piece: the header, each entry's text, then `tail` (the closing, or a cut). */
function writeHar(file: string, entries: Iterable<string>, tail = ']}}\n'): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, '{\n  "log": {\n    "version": "1.2",\n    "creator": { "name": "specgate-test", "version": "1.0" },\n    "entries": [\n');
    let first = true;
    for (const e of entries) {
      writeSync(fd, `${first ? '' : ',\n'}${e}`);
      first = false;
    }
    writeSync(fd, tail);
  } finally {
    closeSync(fd);
  }
}

/** Runs the CLI under /usr/bin/time: its exit code, output and peak resident memory (MB). */
function runMeasured(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; peakMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_KB %M', process.execPath, BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const kb = /PEAK_KB (\d+)/.exec(stderr);
      resolve({ code, stdout, stderr, peakMb: kb ? Number(kb[1]) / 1024 : NaN });
    });
  });
}

describe('passive target: hostile and large recordings', () => {
  const tmp = tempDir('specgate-hostile-');
  let server: RunningNotesServer;
  let session: string[];
  beforeAll(async () => {
    assertBuilt();
    server = await startNotesServer({ token: TOKEN });
    session = (await recordSession(server.url, TOKEN)).map((e) => JSON.stringify(e, null, 2));
  });
  afterAll(async () => {
    await server?.stop();
    tmp.remove();
  });

  it('judges every other entry as before when entries are too deep, too large, not HAR or cut short, and writes every report', async () => {
    const goodHar = join(tmp.dir, 'good.har');
    writeHar(goodHar, session);
    const good = await runSuiteModule(tmp.dir, MODULE, 'notes', ['--target', `har:${goodHar}`]);
    expect(good.code).toBe(0);

    // hostile entries placed among the good ones; the file then ends inside a copy of entry 0
    const getNote = JSON.parse(session[2] as string) as { response: { content: { text: string } } };
    const deepBody = structuredClone(getNote);
    deepBody.response.content.text = `${'['.repeat(100_001)}${']'.repeat(100_001)}`;
    const deepEntry = JSON.stringify({ ...harEntry({}), _initiator: 'X' }).replace('"X"', `${'{"a":'.repeat(100_001)}1${'}'.repeat(100_001)}`);
    const huge = structuredClone(getNote);
    huge.response.content.text = JSON.stringify({ id: 'x', title: 'a'.repeat(33 * 1024 * 1024) });
    const noResponse = JSON.parse(session[4] as string) as Record<string, unknown>;
    delete noResponse['response'];
    const hostile = [...session.slice(0, 3), JSON.stringify(deepBody), deepEntry, ...session.slice(3, 6), JSON.stringify(huge), JSON.stringify(noResponse), ...session.slice(6)];
    const har = join(tmp.dir, 'hostile.har');
    writeHar(har, hostile, `,\n${(session[0] as string).slice(0, 120)}`);
    const junit = join(tmp.dir, 'hostile.xml');
    const run = await runSuiteModule(tmp.dir, MODULE, 'notes', ['--target', `har:${har}`, '--report', `junit=${junit}`]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(good.code);
    expect(run.report).toBeDefined();
    expect(statusMap(run.report as NonNullable<typeof run.report>)).toEqual(statusMap(good.report as NonNullable<typeof good.report>));
    expect(run.stdout).toMatch(/5 of 18 recorded entries were left out: /);
    const leftOut = String(run.report?.suites[0]?.properties?.['entriesLeftOut']).split('\n');
    expect(leftOut).toEqual([
      expect.stringMatching(/hostile\.har:\d+:\d+: entry 3: the answer of entry 3 nests JSON 100001 levels deep, beyond specgate's limit of 256; it is left out/),
      expect.stringMatching(/hostile\.har:\d+:\d+: entry 4: it nests JSON 100002 levels deep, beyond specgate's limit of 256; it is left out/),
      expect.stringMatching(/hostile\.har:\d+:\d+: entry 8: it is \d+ bytes, over the cap of 33554432 bytes a recorded exchange may take; it is left out/),
      expect.stringMatching(/hostile\.har:\d+:\d+: entry 9: missing required key "response" \(not valid HAR 1\.2\); it is left out/),
      expect.stringMatching(/hostile\.har:\d+:\d+: entry 17: the file ends inside this entry: it is cut short/),
    ]);
    expect(run.report?.suites[0]?.properties).toMatchObject({ exchanges: '13' });
    expect(existsSync(junit)).toBe(true);
    expect(readFileSync(junit, 'utf8')).toContain('entriesLeftOut');
    if (!xmllint.skip) expect(validate(junit)).toEqual({ ok: true, errors: [] });
  }, 120_000);

  it(`judges a ${BIG_MB} MB recording with its peak memory well under the file's size`, async () => {
    const asset = JSON.stringify(harEntry({ url: `${server.url}/bundle.png`, status: 200, responseHeaders: { 'content-type': 'image/png' }, body: Buffer.alloc(192 * 1024, 0x5a).toString('base64'), base64: true }));
    const cycle = session.join(',\n').length + asset.length;
    const cycles = Math.ceil((BIG_MB * 1024 * 1024) / cycle);
    function* entries(): Generator<string> {
      for (let i = 0; i < cycles; i++) {
        yield* session;
        yield asset;
      }
    }
    const har = join(tmp.dir, 'big.har');
    writeHar(har, entries());
    const sizeMb = statSync(har).size / (1024 * 1024);
    const json = join(tmp.dir, 'big.json');
    const started = performance.now();
    const run = await runMeasured(['run', '--suite-module', MODULE, '--suite', 'notes', '--target', `har:${har}`, '--report', `json=${json}`], tmp.dir);
    const seconds = (performance.now() - started) / 1000;
    console.log(`[passive-hostile] ${sizeMb.toFixed(0)} MB recording, ${cycles * (session.length + 1)} entries: peak ${run.peakMb.toFixed(0)} MB, ${seconds.toFixed(1)} s`);
    expect(run.code).toBe(0);
    expect(Number.isFinite(run.peakMb)).toBe(true);
    expect(run.peakMb).toBeLessThan(Math.min(PEAK_LIMIT_MB, 100 + sizeMb));
    const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: { properties: Record<string, string> }[] };
    expect(report.suites[0]?.properties).toMatchObject({ exchanges: String(cycles * (session.length + 1)) });
  }, 600_000);
});
