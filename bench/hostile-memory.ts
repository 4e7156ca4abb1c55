import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { judgeValue } from './goals.js';
import { fromRoot } from '../src/paths.js';
import { itemServer, listen, measure, writeBulkSuite, writePreload, type Measured } from './cli-runs.js';
import { absoluteNamedFiles, writeHandEncodedPlugin } from '../test/fixtures/plugin/hand-encoded-plugin.js';

/**
 * Peak memory of specgate against hostile input, each size in a CLI run of its own: the peak
 * resident set of the specgate process (its children's own memory is theirs, not specgate's),
 * read by a preload module when the process exits. Goal: every figure under 512 MB.
 *
 * - a 50 MB answer without a length, at the default body cap and at a cap raised above it;
 * - a 50 MB request body without a length from a client application to a played server;
 * - a plugin whose every answer holds 10,000 files, the whole plugin suite;
 * - 100,000 cases: the two shard runs, and `merge` of them into JSON, JUnit and HTML.
 *
 * `BENCH_CASES` sets the case count of the last one (default 100,000).
 */
const LIMIT_MB = 512;
const BIG_BODY = 50 * 1024 * 1024;
const CASES = Number(process.env['BENCH_CASES'] ?? 100_000);
const DEMO_MODULE = fromRoot('dist/test/fixtures/demo/suite.js');

/** A server whose every answer is `size` bytes of a JSON string, sent in chunks with no length. */
function bigAnswerServer(size: number): Server {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"message":"');
    let sent = 0;
    const more = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end('"}');
    };
    more();
  });
}

/** A merchant client that posts `size` bytes, chunked, to the played service, then exits. */
function writeFloodClient(dir: string, size: number): string {
  const file = join(dir, 'flood-client.cjs');
  writeFileSync(
    file,
    `const http = require('node:http');
const url = new URL(process.env.SPECGATE_MERCHANT_URL + '/content/v2.1/' + process.env.SPECGATE_MERCHANT_ID + '/products');
const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', () => process.exit(0)); });
req.on('error', () => process.exit(0));
const chunk = Buffer.alloc(64 * 1024, 0x61);
let sent = 0;
req.write('{"offerId":"');
const more = () => { while (sent < ${size}) { sent += chunk.length; if (!req.write(chunk)) return void req.once('drain', more); } req.end('"}'); };
more();
`,
  );
  return file;
}


interface Row {
  what: string;
  measured: Measured;
  expectCode: number[];
  note?: string;
}

function print(row: Row): boolean {
  const { peakMb, code } = row.measured;
  const okCode = row.expectCode.includes(code ?? -1);
  const ok = okCode && peakMb < LIMIT_MB;
  console.log(
    `  ${row.what.padEnd(58)} peak ${peakMb.toFixed(0).padStart(5)} MB  exit ${code}${okCode ? '' : ` (expected ${row.expectCode.join(' or ')})`}  ${ok ? 'MET' : 'NOT MET'}${row.note ? `  ${row.note}` : ''}`,
  );
  if (!okCode) console.log(`    stderr: ${row.measured.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return ok;
}

export async function runBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-memory-'));
  const servers: Server[] = [];
  const up = async (s: Server): Promise<string> => {
    servers.push(s);
    return listen(s);
  };
  const rows: boolean[] = [];
  try {
    const preload = writePreload(dir);
    const floor = await measure(dir, preload, ['--version']);
    console.log(`  (floor: specgate --version peaks at ${floor.peakMb.toFixed(0)} MB; goal for each figure below: under ${LIMIT_MB} MB)`);

    const big = await up(bigAnswerServer(BIG_BODY));
    const raised = { maxBodyBytes: 64 * 1024 * 1024, timeoutMs: 120_000 };
    // a property case asks for the answer again on every run and every shrink step: what it keeps
    // must not grow with them, shown by a heap too small for two answers' worth of garbage
    for (const [label, http, cases, heapMb] of [
      ['50 MB answer without a length, default body cap', undefined, ['hello-world', 'name-echo'], undefined],
      ['50 MB answer without a length, body cap raised to 64 MB', raised, ['hello-world'], undefined],
      ['the same, a property case asking 30+ times, 256 MB heap', raised, ['name-echo'], 256],
    ] as const) {
      const profile = join(dir, `big-${http ? 'raised' : 'default'}.yaml`);
      writeFileSync(profile, stringify({ suites: { demo: { vars: { base_url: big, api_key: 'k-0001' }, ...(http ? { http } : {}) } } }));
      const args = ['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--target', profile, ...cases.flatMap((c) => ['--case', c]), '--report', `json=${join(dir, 'big.json')}`];
      const m = await measure(dir, preload, args, heapMb ? { extraNodeOptions: `--max-old-space-size=${heapMb}` } : {});
      rows.push(print({ what: label, measured: m, expectCode: [1, 3] }));
    }

    const client = writeFloodClient(dir, BIG_BODY);
    const clientRun = await measure(dir, preload, ['run', '--suite', 'merchant', '--side', 'client', '--merchant-client', `${process.execPath} ${client}`, '--report', `json=${join(dir, 'client.json')}`]);
    // the one request is a well-formed route: the client may pass; what matters is specgate's memory
    rows.push(print({ what: '50 MB request body without a length from a client', measured: clientRun, expectCode: [0, 1] }));

    const plugin = writeHandEncodedPlugin(dir, 'flood-plugin', absoluteNamedFiles(10_000));
    const pluginRun = await measure(dir, preload, ['run', '--suite', 'plugin', '--side', 'plugin', '--plugin', plugin, '--runs', '5', '--report', `json=${join(dir, 'plugin.json')}`, '--report', `html=${join(dir, 'plugin.html')}`]);
    rows.push(print({ what: 'plugin answering 10,000 files, whole plugin side', measured: pluginRun, expectCode: [1, 3] }));

    const module = writeBulkSuite(dir, CASES);
    const items = await up(itemServer());
    const profile = join(dir, 'bulk.yaml');
    writeFileSync(profile, stringify({ suites: { bulk: { vars: { base: items } } } }));
    const shards: string[] = [];
    for (const k of [1, 2]) {
      const json = join(dir, `shard-${k}.json`);
      shards.push(json);
      const m = await measure(dir, preload, ['run', '--suite-module', module, '--suite', 'bulk', '--target', profile, '--shard', `${k}/2`, '--no-shrink', '--report', `json=${json}`]);
      rows.push(print({ what: `${CASES.toLocaleString('en')} cases, shard ${k}/2 run`, measured: m, expectCode: [0] }));
    }
    const html = join(dir, 'merged.html');
    const merged = await measure(dir, preload, ['merge', ...shards, '--suite-module', module, '--report', `json=${join(dir, 'merged.json')}`, '--report', `junit=${join(dir, 'merged.xml')}`, '--report', `html=${html}`]);
    const htmlMb = existsSync(html) ? statSync(html).size / 1024 / 1024 : NaN;
    rows.push(print({ what: `merge of the two shards (${CASES.toLocaleString('en')} cases), JSON + JUnit + HTML`, measured: merged, expectCode: [0], note: `HTML ${htmlMb.toFixed(1)} MB` }));
    const met = rows.filter(Boolean).length;
    console.log(`hostile memory: ${met} of ${rows.length} figures under ${LIMIT_MB} MB with the expected exit code ${judgeValue('hostile sizes, peak memory and exit code of each run', `${met} of ${rows.length} under the limit with the expected exit code`, `every one < ${LIMIT_MB} MB, with its expected exit code`, met === rows.length)}`);
  } finally {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
