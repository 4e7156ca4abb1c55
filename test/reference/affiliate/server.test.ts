import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { AFFILIATE_HANDLERS } from '../../../reference/affiliate/server/handlers/index.js';
import { AFFILIATE_ROUTES } from '../../../reference/affiliate/server/routes.js';
import { affiliateReference, startAffiliateReference } from '../../../reference/affiliate/server/reference-target.js';
import { startAffiliateServer, type RunningAffiliateServer } from '../../../reference/affiliate/server/server.js';
import { success } from '../../../reference/affiliate/server/answers.js';

const NOW = Date.UTC(2026, 0, 1, 12, 30, 5);

let server: RunningAffiliateServer;
let vars: Record<string, unknown>;
let stop: () => Promise<void>;
const unlisted = new Agent({ localAddress: '127.0.0.2' });

beforeAll(async () => {
  const ref = await startAffiliateReference({ clock: new VirtualClock(NOW) });
  server = ref.server;
  vars = ref.vars;
  stop = ref.stop;
});
afterAll(async () => {
  await stop();
  await unlisted.close();
});

interface Got {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

const v = (name: string): string => String(vars[name]);
const key = (): Record<string, string> => ({ 'Api-Key': v('api_key') });

async function call(path: string, init: { method?: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: string; dispatcher?: Agent; base?: string } = {}): Promise<Got> {
  const res = await request(`${init.base ?? v('affiliate_url')}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? key(),
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.dispatcher ? { dispatcher: init.dispatcher } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text }, headers: res.headers };
}

const window = (): string => `fromDate=${encodeURIComponent(v('from_date'))}&toDate=${encodeURIComponent(v('to_date'))}`;
const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const lead = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', password: 'S3cret!pass', ip: '203.0.113.7', phone: '5551234567' };
const register = (body: string, type = 'application/x-www-form-urlencoded', headers = key()): Promise<Got> =>
  call('/api/v2/leads', { method: 'POST', headers: { ...headers, 'content-type': type }, body });

/** The envelope every answer carries: server.date on the run's clock, httpCode the status, executionTime a number. */
function expectEnvelope(got: Got): void {
  const s = got.body['server'] as Record<string, unknown> | undefined;
  expect(s).toBeDefined();
  expect(s?.['date']).toBe('2026-01-01 12:30:05');
  expect(s?.['httpCode']).toBe(got.status);
  expect(typeof s?.['executionTime']).toBe('number');
  expect(s?.['executionTime'] as number).toBeGreaterThanOrEqual(0);
  expect(String(got.headers['content-type'])).toMatch(/^application\/json/);
  if (got.status === 200 || got.status === 201) expect(got.body['message']).toBeNull();
  else {
    const messages = got.body['messages'] as unknown[];
    expect(typeof messages[0]).toBe('string');
    expect(got.body['message']).toBe(messages[0]);
  }
}

describe('reference affiliate platform: routing and target', () => {
  it('has a handler for every route, and none besides', () => {
    expect(Object.keys(AFFILIATE_HANDLERS).sort()).toEqual(AFFILIATE_ROUTES.map((r) => r.id).sort());
    expect(AFFILIATE_ROUTES.find((r) => r.id === 'autologin')?.path).toBe('/api/v2/brokers/login/details');
  });

  it('gives every variable of the design', () => {
    for (const name of ['affiliate_url', 'api_key', 'whitelisted_source', 'unlisted_source', 'lead_request_id', 'from_date', 'to_date']) expect(vars[name], name).toBeDefined();
    expect(vars['affiliate_url']).toBe(server.url);
    expect(vars['unlisted_source']).toBe('127.0.0.2');
    expect(vars).not.toHaveProperty('refusal_status');
    expect(v('from_date')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('starts as the embedded reference on the engine clock', async () => {
    const ref = await affiliateReference.start({ clock: new VirtualClock(NOW) });
    try {
      const got = await call('/api/v2/offers', { base: String(ref.vars['affiliate_url']), headers: { 'Api-Key': String(ref.vars['api_key']) } });
      expect(got.status).toBe(200);
    } finally {
      await ref.stop();
    }
  });
});

describe('access', () => {
  it('answers 401 without Api-Key and with a wrong one', async () => {
    const none = await call('/api/v2/offers', { headers: {} });
    expect(none.status).toBe(401);
    expectEnvelope(none);
    const wrong = await call('/api/v2/offers', { headers: { 'Api-Key': `${v('api_key')}x` } });
    expect(wrong.status).toBe(401);
    expectEnvelope(wrong);
    // the key is compared exactly
    expect((await call('/api/v2/offers', { headers: { 'Api-Key': v('api_key').toUpperCase() } })).status).toBe(401);
  });

  it('answers 403 to a caller whose address is not whitelisted, key or not', async () => {
    const got = await call('/api/v2/offers', { dispatcher: unlisted });
    expect(got.status).toBe(403);
    expectEnvelope(got);
    expect(String((got.body['messages'] as string[])[0])).toContain('127.0.0.2');
    expect((await call('/api/v2/postbacks', { dispatcher: unlisted, headers: {} })).status).toBe(403);
  });

  it('accepts another address once it is whitelisted', async () => {
    const open = await startAffiliateServer({ clock: new VirtualClock(NOW), whitelist: ['127.0.0.1', '127.0.0.2'] });
    try {
      expect((await call('/api/v2/offers', { base: open.url, dispatcher: unlisted })).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});

describe('operations', () => {
  it('every operation answers with the envelope and message null', async () => {
    const answers = await Promise.all([
      call('/api/v2/offers?itemPerPage=5'),
      call(`/api/v2/leads?${window()}&itemsPerPage=5`),
      call(`/api/v2/conversions?${window()}&itemPerPage=5`),
      call(`/api/v2/income?${window()}`),
      call('/api/v2/postbacks'),
      call(`/api/v2/brokers/login/details?leadRequestID=${v('lead_request_id')}`),
    ]);
    answers.push(await register(form(lead)));
    for (const got of answers) {
      expect(got.status).toBe(200);
      expectEnvelope(got);
    }
    const [offers, leads, conversions, income, postbacks, autologin] = answers;
    expect((offers?.body['data'] as Record<string, unknown>)['totalItems']).toBe(40);
    expect(leads?.body['total']).toEqual({ items: 1500 });
    expect(typeof (conversions?.body['total'] as Record<string, unknown>)['items']).toBe('string');
    expect(typeof income?.body['cost']).toBe('number');
    expect((postbacks?.body['items'] as unknown[]).length).toBe(25);
    expect(Object.keys(autologin?.body['details'] as object).sort()).toEqual(['fragment', 'method', 'parameters', 'url']);
  });

  it('refusals carry the envelope and messages: 400, 404, 405, 404 for an unknown path', async () => {
    const answers = [
      [400, await call('/api/v2/leads')],
      [400, await call('/api/v2/postbacks?itemsPerPage=7')],
      [400, await call('/api/v2/offers?itemPerPage=1001')],
      [400, await call('/api/v2/brokers/login/details')],
      [404, await call(`/api/v2/brokers/login/details?leadRequestID=${v('lead_request_id').toLowerCase()}`)],
      [405, await call('/api/v2/offers', { method: 'DELETE' })],
      [404, await call('/api/v1/offers')],
    ] as const;
    for (const [status, got] of answers) {
      expect(got.status).toBe(status);
      expectEnvelope(got);
    }
  });
});

describe('registration over HTTP', () => {
  it('a form-encoded lead request answers 200 with the details', async () => {
    const got = await register(form({ ...lead, custom1: 'http-sub', currency: 'EUR', custom: 'c' }));
    expect(got.status).toBe(200);
    expectEnvelope(got);
    const d = got.body['details'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(d).sort()).toEqual(['advertiser', 'leadRequest', 'offer', 'postbacks', 'redirect']);
    expect(typeof d['leadRequest']?.['ID']).toBe('string');
    expect(typeof d['offer']?.['ID']).toBe('string');
    expect(String(d['redirect']?.['url']).startsWith(`${server.landingUrl}/`)).toBe(true);
    const id = String(d['leadRequest']?.['ID']);
    const auto = await call(`/api/v2/brokers/login/details?leadRequestID=${id}`);
    expect(auto.status).toBe(200);
    const listed = await call(`/api/v2/leads?${window()}&custom1=http-sub`);
    expect((listed.body['items'] as Array<Record<string, unknown>>).map((r) => r['leadRequestIDEncoded'])).toContain(id);
  });

  it('refuses a JSON body, naming the form type', async () => {
    const got = await register(JSON.stringify(lead), 'application/json');
    expect(got.status).toBe(415);
    expectEnvelope(got);
    expect(String((got.body['messages'] as string[])[0])).toContain('application/x-www-form-urlencoded');
  });

  it('refuses a request missing a required field with 400 naming it', async () => {
    const { phone: _phone, ...rest } = lead;
    const got = await register(form(rest));
    expect(got.status).toBe(400);
    expectEnvelope(got);
    expect(got.body['messages']).toEqual(['phone is required']);
  });

  it('serves the landing page that redirects point at', async () => {
    const got = await call('/landing/login/x?a=1', { headers: {} });
    expect(got.status).toBe(200);
    expect(String(got.body['text'])).toContain('a = 1');
  });
});

describe('the run clock', () => {
  it('dates the envelope and registrations on the given clock', async () => {
    const clock = new VirtualClock(NOW);
    const own = await startAffiliateServer({ clock });
    try {
      await clock.advance(3600_000 + 2000);
      const got = await call('/api/v2/leads', { base: own.url, method: 'POST', headers: { ...key(), 'content-type': 'application/x-www-form-urlencoded' }, body: form(lead) });
      expect((got.body['server'] as Record<string, unknown>)['date']).toBe('2026-01-01 13:30:07');
      const id = String(((got.body['details'] as Record<string, unknown>)['leadRequest'] as Record<string, unknown>)['ID']);
      const listed = await call(`/api/v2/leads?fromDate=2026-01-01+13:30:07&toDate=2026-01-01+13:30:07`, { base: own.url });
      expect(listed.body['items']).toMatchObject([{ leadRequestIDEncoded: id, signupDate: '2026-01-01 13:30:07', hasFTD: 0 }]);
    } finally {
      await own.stop();
    }
  });
});

describe('variants', () => {
  it('override replaces one operation (a platform answering 201 to registrations)', async () => {
    const variant = await startAffiliateServer({
      clock: new VirtualClock(NOW),
      override: (id, reference) =>
        id === 'registerLead'
          ? (c, ctx) => {
              const a = reference(c, ctx);
              const body = a.body as Record<string, unknown>;
              return a.status === 200 ? success(ctx, { details: body['details'] }, 201) : a;
            }
          : reference,
    });
    try {
      const got = await call('/api/v2/leads', { base: variant.url, method: 'POST', headers: { ...key(), 'content-type': 'application/x-www-form-urlencoded' }, body: form(lead) });
      expect(got.status).toBe(201);
      expectEnvelope(got);
      expect((got.body['details'] as Record<string, unknown>)['leadRequest']).toBeDefined();
    } finally {
      await variant.stop();
    }
  });

  it('routes moves operations, landingUrl moves targets', async () => {
    const variant = await startAffiliateServer({
      clock: new VirtualClock(NOW),
      landingUrl: 'http://127.0.0.1:1/elsewhere',
      routes: (routes) => routes.map((r) => (r.id === 'offers' ? { ...r, path: '/api/v2/get-offers' } : r)),
    });
    try {
      expect((await call('/api/v2/get-offers', { base: variant.url })).status).toBe(200);
      expect((await call('/api/v2/offers', { base: variant.url })).status).toBe(404);
      const t = await call(`/api/v2/brokers/login/details?leadRequestID=${variant.model.leads[0]?.id ?? ''}`, { base: variant.url });
      expect(String((t.body['details'] as Record<string, unknown>)['url'])).toMatch(/^http:\/\/127\.0\.0\.1:1\/elsewhere\/login\//);
    } finally {
      await variant.stop();
    }
  });
});
