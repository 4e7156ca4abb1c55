/**
 * A secret from `${env:...}` leaves no trace in any output, whole or in part, however a hostile
 * target spells it or wherever it places it. The target echoes the key of the echo case:
 *
 * - right across a cut: where the engine keeps only the head of a text for the report (the
 *   body of a recorded exchange, a value quoted in a failure message, a body that does not parse),
 *   the secret straddles the limit, so a redactor run after the cut would see only its first
 *   70%, which no longer matches the secret;
 * - URL-encoded twice (`%2541...`), with upper- and lower-case hex digits;
 * - as hexadecimal bytes, lower and upper case.
 *
 * Every output is searched: console, stderr, and the JSON, JUnit, TAP and HTML reports.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, type Listening } from '../../src/targets/loopback-server.js';
import { BODY_PREVIEW_CHARS } from '../../src/targets/text-cut.js';
import { UNPARSED_BODY_CHARS } from '../../src/engine/runtime/observation.js';
import { assertBuilt, caseOf, demoSection, outputsOf, reportOf, runDemo, tempDir, writeProfile, type JsonReport } from './cli.js';

/** What the hostile target answers to POST /echo, given the key it received. */
type Answer = (key: string) => { contentType: string; body: string };

const tmp = tempDir('specgate-secrets-');
let server: Listening;
let answer: Answer = () => ({ contentType: 'application/json', body: '{}' });

beforeAll(async () => {
  assertBuilt();
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const key = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('key') ?? '';
      const { contentType, body } = answer(key);
      res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server = await listenOnLoopback(srv);
});
afterAll(async () => {
  await server.stop();
  tmp.remove();
});

interface EchoRun {
  code: number | null;
  report: JsonReport;
  /** Output name -> its whole text. */
  outputs: Record<string, string>;
}

let runs = 0;

/** Runs the demo echo case against the hostile target, `secret` coming from the environment. */
async function runEcho(secret: string, respond: Answer): Promise<EchoRun> {
  answer = respond;
  const n = ++runs;
  const profile = writeProfile(tmp.dir, `echo-${n}`, { suites: { demo: demoSection(server.url, { vars: { base_url: server.url, api_key: '${env:DEMO_SECRET}' } }) } });
  const html = join(tmp.dir, `report-${n}.html`);
  const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'echo-key', '--verbose', '--report', `html=${html}`], { DEMO_SECRET: secret });
  return {
    code: run.code,
    report: reportOf(run),
    outputs: outputsOf(run, html),
  };
}

/** The outputs (by name) that hold `trace`. */
function holding(outputs: Record<string, string>, trace: string): string[] {
  return Object.entries(outputs)
    .filter(([, text]) => text.includes(trace))
    .map(([name]) => name);
}

/** How many characters of a value a mismatch message quotes (`show` in src/checks/matchers.ts). */
const SHOWN_CHARS = 300;

/** Longest prefix of a secret an output may show (short enough to say nothing of it). */
const SAFE_PREFIX = 6;

/** How many characters of the secret fall before the cut: 70% of it. */
const cutInside = (secret: string): number => Math.ceil(secret.length * 0.7);

/** The recorded response bodies of the echo case, as the JSON report keeps them. */
function responseBodies(report: JsonReport): string[] {
  const c = caseOf(report, 'echo-key') as unknown as { exchanges: { response?: { body?: unknown } }[] };
  return c.exchanges.map((x) => x.response?.body).filter((b): b is string => typeof b === 'string');
}

describe('a secret placed right across a cut', () => {
  // letters and digits: raw, URL-encoded and JSON-escaped alike, so only the cut can hide it
  const SECRET = 'Q7vLm2Xr9TkP4sWz8NbC3hJd';
  // every prefix longer than SAFE_PREFIX starts with this one
  const head = SECRET.slice(0, SAFE_PREFIX + 1);

  it('in the body of a recorded exchange (cut to its first characters) shows no part of it', async () => {
    const run = await runEcho(SECRET, (key) => {
      // the key starts 70% of its length before the preview ends
      const open = '{"ok":false,"note":"';
      const pad = 'x'.repeat(BODY_PREVIEW_CHARS - cutInside(key) - open.length);
      return { contentType: 'application/json', body: `${open}${pad}${key}","tail":"${'y'.repeat(200)}"}` };
    });
    expect(run.code).toBe(1);
    expect(caseOf(run.report, 'echo-key').outcome).toBe('failed');
    // not vacuous: the body was cut, and the secret is masked where it was
    const [body] = responseBodies(run.report);
    expect(body).toMatch(/x\*\*\*","tail":"y+… \(\d+ more characters\)$/);
    expect(holding(run.outputs, head)).toEqual([]);
  }, 60_000);

  it('in a value quoted by a failure message (cut to its first characters) shows no part of it', async () => {
    const run = await runEcho(SECRET, (key) => {
      // the message quotes the value as JSON: the opening quote, then the padding, then the key
      const pad = 'x'.repeat(SHOWN_CHARS - cutInside(key) - 1);
      return { contentType: 'application/json', body: JSON.stringify({ ok: true, query: `${pad}${key}`, header: key, form: key }) };
    });
    expect(run.code).toBe(1);
    const failure = caseOf(run.report, 'echo-key').failures.find((f) => f.message.startsWith('$.query'));
    // masked before the cut (the quote closes), or its piece masked at the cut (the mark stays)
    expect(failure?.message).toMatch(/got "x{200,}\*\*\*("|…)$/);
    expect(holding(run.outputs, head)).toEqual([]);
  }, 60_000);

  it('in a body that does not parse as its Content-Type claims (cut to its first characters) shows no part of it', async () => {
    const run = await runEcho(SECRET, (key) => {
      const pad = 'x'.repeat(UNPARSED_BODY_CHARS - cutInside(key));
      return { contentType: 'application/json', body: `${pad}${key} and more text that is not JSON` };
    });
    expect(run.code).toBe(1);
    const failure = caseOf(run.report, 'echo-key').failures.find((f) => f.message.startsWith('the body is not JSON'));
    expect(failure?.actual).toMatch(/^x+\*\*\* and more text/);
    expect(holding(run.outputs, head)).toEqual([]);
  }, 60_000);

  it('in the JSON parser\'s error message, which quotes ten characters of the body, shows no part of it', async () => {
    const run = await runEcho(SECRET, (key) => ({ contentType: 'application/json', body: `${key} is not JSON` }));
    expect(run.code).toBe(1);
    const failure = caseOf(run.report, 'echo-key').failures.find((f) => f.message.startsWith('the body is not JSON'));
    // not vacuous: the parser's message is in the report, without its piece of the body
    expect(failure?.message).toMatch(/^the body is not JSON: Unexpected token/);
    expect(holding(run.outputs, head)).toEqual([]);
  }, 60_000);
});

describe('a secret echoed in encodings a redactor must know', () => {
  // characters that URL encoding and hex both spell differently from the raw text
  const SECRET = 'Zq9!s3cr3t/v@lue+Key=~ä';
  const lowerHex = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  const twiceUrl = encodeURIComponent(encodeURIComponent(SECRET));
  const twiceUrlLower = encodeURIComponent(lowerHex(encodeURIComponent(SECRET)));
  const twiceForm = new URLSearchParams([['k', new URLSearchParams([['k', SECRET]]).toString().slice(2)]]).toString().slice(2);
  const hex = Buffer.from(SECRET, 'utf8').toString('hex');

  it('double-URL-encoded (%25 before each escape), in either hex case, is masked', async () => {
    expect(twiceUrl).toContain('%252F');
    expect(twiceUrlLower).toContain('%252f');
    const run = await runEcho(SECRET, (key) => {
      const once = encodeURIComponent(key);
      const body = { ok: false, upper: encodeURIComponent(once), lower: encodeURIComponent(lowerHex(once)), form: new URLSearchParams([['k', new URLSearchParams([['k', key]]).toString().slice(2)]]).toString().slice(2) };
      return { contentType: 'application/json', body: JSON.stringify(body) };
    });
    expect(run.code).toBe(1);
    const [body] = responseBodies(run.report);
    expect(body).toBe('{"ok":false,"upper":"***","lower":"***","form":"***"}');
    for (const trace of [twiceUrl, twiceUrlLower, twiceForm, SECRET]) expect({ trace, outputs: holding(run.outputs, trace) }).toEqual({ trace, outputs: [] });
  }, 60_000);

  it('as hexadecimal bytes, lower and upper case, is masked', async () => {
    const run = await runEcho(SECRET, (key) => {
      const bytes = Buffer.from(key, 'utf8').toString('hex');
      return { contentType: 'application/json', body: JSON.stringify({ ok: false, lower: bytes, upper: bytes.toUpperCase(), dump: `0000 ${bytes} 00ff` }) };
    });
    expect(run.code).toBe(1);
    const [body] = responseBodies(run.report);
    expect(body).toBe('{"ok":false,"lower":"***","upper":"***","dump":"0000 *** 00ff"}');
    for (const trace of [hex, hex.toUpperCase(), SECRET]) expect({ trace, outputs: holding(run.outputs, trace) }).toEqual({ trace, outputs: [] });
  }, 60_000);
});
