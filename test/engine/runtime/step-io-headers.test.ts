/**
 * A profile's `headers:`: a vendor that calls the spec's `spec-version` request header
 * "X-Vendor-Version" and answers its `spec-trace` as "X-Vendor-Trace" fails the case that sends,
 * expects and captures them by the spec's names without the map, and passes it with the map
 * (names matched whatever their case); a case naming no renamed header passes either way.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import { vendorSuiteRun } from '../../helpers/vendor-suite-run.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-headers-'));
mkdirSync(join(dir, 'cases'));
writeFileSync(join(dir, 'requirements.yaml'), '- { id: VH-VERSION, level: MUST, source: "x.txt#A", text: a versioned request is traced }\n- { id: VH-PLAIN, level: MUST, source: "x.txt#B", text: a plain request is answered }\n');
writeFileSync(
  join(dir, 'cases', 'traced.yaml'),
  [
    '- id: traced',
    '  requirements: [VH-VERSION]',
    '  steps:',
    '    - request: { method: GET, url: "${base_url}/traced", headers: { Spec-Version: "2" } }',
    '      expect: { status: 200, headers: { spec-trace: t-2 } }',
    '      capture: { trace: "header:SPEC-TRACE" }',
    '    - request: { method: GET, url: "${base_url}/echo/${trace}" }',
    '      expect: { status: 200, body: { echoed: t-2 } }',
    '- id: plain',
    '  requirements: [VH-PLAIN]',
    '  steps:',
    '    - request: { method: GET, url: "${base_url}/plain", headers: { accept: application/json } }',
    '      expect: { status: 200, headers: { content-type: application/json } }',
    '',
  ].join('\n'),
);

/** The vendor: it reads the version only as X-Vendor-Version and answers the trace as X-Vendor-Trace. */
function vendor(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (url.startsWith('/echo/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: decodeURIComponent(url.slice(6)) }));
  if (url === '/plain') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  const version = req.headers['x-vendor-version'];
  if (typeof version !== 'string') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"X-Vendor-Version is required"}');
  res.writeHead(200, { 'content-type': 'application/json', 'x-vendor-trace': `t-${version}` }).end('{}');
}

const runVendor = vendorSuiteRun('vh', dir, vendor);

async function runWith(headerNames?: Record<string, string>): Promise<Awaited<ReturnType<typeof run>>> {
  return runVendor(headerNames ? { headerNames } : {});
}

const outcomes = (r: Awaited<ReturnType<typeof run>>): [string, string][] => (r.suites[0]?.cases ?? []).map((c) => [c.id, c.outcome]);

describe('headers: in requests, expectations and captures', () => {
  it("without the map, the vendor refuses the request that names the header the spec's way", async () => {
    const result = await runWith();
    expect(outcomes(result)).toEqual([
      ['traced', 'failed'],
      ['plain', 'passed'],
    ]);
    expect(result.suites[0]?.cases[0]?.failures[0]?.message).toContain('status');
  });

  it("with it, the request carries the vendor's name and the answer's header is expected and captured by the spec's", async () => {
    const result = await runWith({ 'spec-version': 'X-Vendor-Version', 'spec-trace': 'X-Vendor-Trace' });
    expect((result.suites[0]?.cases ?? []).map((c) => [c.id, c.outcome, c.failures])).toEqual([
      ['traced', 'passed', []],
      ['plain', 'passed', []],
    ]);
  });
});
