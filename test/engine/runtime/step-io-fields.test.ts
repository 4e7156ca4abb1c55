/**
 * A profile's `fields:` beyond JSON bodies: a vendor that calls the spec's `account_id` "acct"
 * in the form bodies and query parameters it reads, and in its JSON and form-encoded answers,
 * fails the cases that send and read the field without the map and passes them with it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import { vendorSuiteRun } from '../../helpers/vendor-suite-run.js';

const dir = mkdtempSync(join(tmpdir(), 'specgate-fields-'));
mkdirSync(join(dir, 'cases'));
writeFileSync(join(dir, 'requirements.yaml'), '- { id: VF-FORM, level: MUST, source: "x.txt#A", text: an order is placed with a form }\n- { id: VF-QUERY, level: MUST, source: "x.txt#B", text: orders are looked up by query }\n');
writeFileSync(
  join(dir, 'cases', 'orders.yaml'),
  [
    '- id: place-order',
    '  requirements: [VF-FORM]',
    '  steps:',
    '    - request: { method: POST, url: "${base_url}/orders", form: { account_id: a1, amount: 5 } }',
    '      expect: { status: 201, body: { account_id: a1, amount: "5" } }',
    '- id: look-up-orders',
    '  requirements: [VF-QUERY]',
    '  steps:',
    '    - request: { method: GET, url: "${base_url}/orders", query: { account_id: a1 } }',
    '      expect: { status: 200, body: { account_id: a1, count: "1" } }',
    '',
  ].join('\n'),
);

/** The vendor: it knows the account only as `acct`, in what it reads and in what it answers. */
function vendor(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST') {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (!form.get('acct')) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"acct is required"}');
      return void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ acct: form.get('acct'), amount: form.get('amount') }));
    }
    if (!url.searchParams.get('acct')) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"acct is required"}');
    res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end(new URLSearchParams({ acct: url.searchParams.get('acct') ?? '', count: '1' }).toString());
  });
}

const runVendor = vendorSuiteRun('vf', dir, vendor);

async function runWith(fieldNames?: Record<string, string>): Promise<Awaited<ReturnType<typeof run>>> {
  return runVendor(fieldNames ? { fieldNames } : {});
}

const statuses = (r: Awaited<ReturnType<typeof run>>): Record<string, string> => Object.fromEntries(r.requirements.map((v) => [v.id, v.status]));

describe('fields: in form bodies and query parameters', () => {
  it('without the map, the vendor refuses the form and the query that name the field the spec\'s way', async () => {
    const result = await runWith();
    expect(statuses(result)).toEqual({ 'VF-FORM': 'failed', 'VF-QUERY': 'failed' });
    expect(result.summary.exitCode).toBe(1);
  });

  it('with it, the form and the query carry the vendor\'s name and its answers (JSON and form-encoded) are read in the spec\'s', async () => {
    const result = await runWith({ account_id: 'acct' });
    const cases = result.suites[0]?.cases ?? [];
    expect(cases.map((c) => [c.id, c.outcome, c.failures])).toEqual([['place-order', 'passed', []], ['look-up-orders', 'passed', []]]);
    expect(statuses(result)).toEqual({ 'VF-FORM': 'passed', 'VF-QUERY': 'passed' });
  });

  it('a map key the suite neither defines in a schema nor sends is refused before anything runs', async () => {
    await expect(runWith({ acount_id: 'acct' })).rejects.toThrow(/fields\.acount_id names a field no schema of suite vf has, nor a form or query its cases send; did you mean "account_id"\?/);
  });
});
