/**
 * Steps in a real run (a small suite written to a temporary folder, its reference a node:http
 * server on 127.0.0.1): failures name the values of the target's they relied on, typed
 * comparisons on form bodies say what they compared, and a body that does not decode leads its
 * failure with the decoding error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { match } from '../../../src/checks/matchers.js';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CaseResult } from '../../../src/engine/model.js';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';

/** The planted target: advertises a 600-second expiry, never expires, answers form and HTML. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const json = (body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (path === '/start') return json({ code: 'c-0123456789abcdefghijklmnop', expires_in: 600 });
  if (path === '/poll') return json({ error: 'authorization_pending' });
  if (path === '/form') return void res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end('expires_in=900&interval=soon');
  if (path === '/html') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
  if (path === '/broken') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
  res.writeHead(404).end();
}

const CASES = `
- id: waits-advertised-expiry
  requirements: [S-EXPIRY]
  steps:
    - request: { method: POST, url: "\${base_url}/start", accept: json }
      capture: { code: $.code, expires_in: $.expires_in }
    - request: { method: GET, url: "\${base_url}/form" }
    - wait: "\${expires_in}"
    - request: { method: POST, url: "\${base_url}/poll", form: { code: "\${code}" }, accept: json }
      expect: { body: { error: expired_token } }

- id: check-sets-with-default
  requirements: [S-EXPIRY]
  steps:
    - check: s.start
    - set: { kept: "\${code}", unrelated: "x" }
    - wait: "\${interval}"
    - request: { method: POST, url: "\${base_url}/poll", form: { code: "\${kept}", other: "\${unrelated}" }, accept: json }
      expect: { body: { error: slow_down } }

- id: judges-a-captured-value
  requirements: [S-EXPIRY]
  steps:
    - request: { method: POST, url: "\${base_url}/start", accept: json }
      capture: { code: $.code }
    - request: { method: POST, url: "\${base_url}/broken", form: { code: "\${code}" }, accept: json }
      capture: { error: $.error }
    - check: s.expect
      with: { value: "\${error}", matches: expired_token }

- id: form-types
  requirements: [S-FORMAT]
  steps:
    - request: { method: GET, url: "\${base_url}/form", accept: json }
      expect: { body: { expires_in: { $type: integer, $equals: 900 }, interval: { $gte: 0 } } }

- id: html-instead-of-json
  requirements: [S-FORMAT]
  steps:
    - request: { method: GET, url: "\${base_url}/html", accept: json }
      expect: { body: { access_token: { $type: string }, token_type: bearer, scope: { $present: true } } }
`;

const module = (listening: () => Listening, dir: string): SuiteModule => ({
  name: 's',
  dir,
  checks: {
    // sets interval to a default of its own when the answer leaves it out (as oauth.deviceStart does)
    start: defineCheck({
      description: 'starts and sets code, expires_in and interval',
      args: { type: 'object' },
      judges: [],
      sets: ['code', 'expires_in', 'interval'],
      async run(ctx) {
        const res = await ctx.request({ method: 'POST', url: `${String(ctx.vars['base_url'])}/start`, accept: 'json' });
        const body = res.body as Record<string, unknown>;
        ctx.vars['code'] = body['code'];
        ctx.vars['expires_in'] = body['expires_in'];
        ctx.vars['interval'] = body['interval'] ?? 5;
      },
    }),
    expect: defineCheck<{ value?: unknown; matches: unknown }>({
      description: 'judges a value',
      args: { type: 'object' },
      judges: 'case',
      async run(ctx, args) {
        for (const m of match(args.value, args.matches)) ctx.fail({ message: `value: ${m.path} ${m.message}` });
      },
    }),
  },
  reference: { start: async () => ({ description: 'planted', vars: { base_url: listening().url }, stop: async () => undefined }) },
});

describe('failure messages of steps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-steps-'));
  let listening: Listening | undefined;
  let cases: Map<string, CaseResult>;
  beforeAll(async () => {
    mkdirSync(join(dir, 'cases'));
    writeFileSync(join(dir, 'requirements.yaml'), '- { id: S-EXPIRY, level: MUST, source: "s.txt#A", text: expiry }\n- { id: S-FORMAT, level: MUST, source: "s.txt#B", text: format }\n');
    writeFileSync(join(dir, 'cases', 'a.yaml'), CASES);
    listening = await listenOnLoopback(createServer(answer));
    const l = listening;
    const result = await run({ modules: [module(() => l, dir)], suites: ['s'], targets: {}, seed: 1 });
    cases = new Map((result.suites[0]?.cases ?? []).map((c) => [c.id, c]));
  });
  afterAll(async () => {
    await listening?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const messages = (id: string): string[] => {
    const c = cases.get(id);
    expect(c?.reason).toBeUndefined();
    // every failed assertion, those of one requirement listed under its one failure
    return (c?.failures ?? []).flatMap((f) => (f.assertions ?? [f]).map((a) => a.message));
  };

  it('names the captured values a failing step used and waited, with the step and the request they came from', () => {
    expect(messages('waits-advertised-expiry')).toEqual([
      '$.error: expected "expired_token", got "authorization_pending" — relying on values the target advertised: code="c-0123456789abcdefghijkl"…, expires_in=600 (captured from step 1, POST /start)',
    ]);
  });

  it('tells values a check found in its answer from those it filled in, and follows them through set:', () => {
    expect(messages('check-sets-with-default')).toEqual([
      '$.error: expected "slow_down", got "authorization_pending" — relying on values the target advertised: code="c-0123456789abcdefghijkl"… (captured from step 1, check s.start: POST /start); and relying on values a check set itself: interval=5 (not found in its answers; set by step 1, check s.start: POST /start)',
    ]);
  });

  it('leads a check failure on a value from a body that did not decode with the decoding error, and names what that value relied on', () => {
    const [message] = messages('judges-a-captured-value');
    expect(message).toMatch(/^POST \/broken \(step 2\): the body is not JSON: .+ \(first bytes: "<html>not json<\/html>"\); value: \$ expected "expired_token", got \(absent\) — relying on values the target advertised: code="c-0123456789abcdefghijkl"… \(captured from step 1, POST \/start\)$/);
  });

  it('says a typed comparison on a form body compared text, and that the request asked for JSON', () => {
    expect(messages('form-types')).toEqual([
      '$.expires_in: expected an integer, got the text "900" (the answer was form-encoded, which carries no types, although the request asked for JSON)',
      '$.expires_in: expected exactly 900 (a number), got the text "900" (the answer was form-encoded, which carries no types, although the request asked for JSON; a literal 900 without $equals compares the text)',
      '$.interval: expected gte 0, got the text "soon", which is not a number (the answer was form-encoded, which carries no types, although the request asked for JSON)',
    ]);
  });

  it('fails a body that is not the JSON asked for once, with the decoding error first, not once per field', () => {
    const found = messages('html-instead-of-json');
    expect(found).toHaveLength(1);
    // the parser's own words vary between Node versions; what leads and what follows does not
    expect(found[0]).toMatch(/^the body is not JSON: Unexpected token .+ \(it came with Content-Type text\/html; first bytes: "<html><body>Bad gateway<\/body><\/html>"\)$/);
  });
});
