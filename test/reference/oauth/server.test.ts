import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { DEVICE_GRANT_TYPE } from '../../../reference/oauth/model/index.js';
import { startReference } from '../../../reference/oauth/server/reference-target.js';

const clock = new VirtualClock();
let ref: Awaited<ReturnType<typeof startReference>>;
let vars: Record<string, unknown>;

beforeAll(async () => {
  ref = await startReference({ clock });
  vars = ref.vars;
});
afterAll(() => ref.stop());

async function post(path: string, form: Record<string, string>, accept?: string) {
  const res = await request(`${String(vars['auth_url'])}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, type: String(res.headers['content-type']), text: await res.body.text() };
}

describe('reference platform server', () => {
  it('runs the web flow through the HTML forms with the scripted user agent', async () => {
    const r = await ref.agent!.perform('approve', { query: { client_id: vars['client_id'], state: 's1', scope: 'repo' } });
    expect(r).toMatchObject({ outcome: 'redirected', state: 's1', prompted: true });
    expect(String(r['location'])).toMatch(/^http:\/\/app\.example\.test\/callback\?code=/);
    const tok = await post('/login/oauth/access_token', { client_id: String(vars['client_id']), client_secret: String(vars['client_secret']), code: String(r['code']) });
    expect(tok.type).toContain('application/x-www-form-urlencoded');
    const f = new URLSearchParams(tok.text);
    expect(f.get('token_type')).toBe('bearer');
    expect(f.get('scope')).toBe('repo');
    const user = await request(`${String(vars['api_url'])}/user`, { headers: { authorization: `Bearer ${f.get('access_token')}` } });
    expect(user.statusCode).toBe(200);
    expect(await user.body.json()).toMatchObject({ login: vars['user_login'] });
    const again = await ref.agent!.perform('open', { query: { client_id: vars['client_id'] } });
    expect(again).toMatchObject({ outcome: 'redirected', prompted: false });
  });

  it('does not redirect to a rejected redirect_uri', async () => {
    const r = await ref.agent!.perform('approve', { query: { client_id: vars['client_id'], redirect_uri: 'http://app.example.test/other' } });
    expect(r).toMatchObject({ outcome: 'rejected', location: null, code: null });
  });

  it('runs the device flow with polling on the virtual clock and logs every request', async () => {
    const start = await post('/login/device/code', { client_id: String(vars['device_client_id']), scope: 'repo' }, 'application/json');
    const d = JSON.parse(start.text) as Record<string, unknown>;
    expect(d).toMatchObject({ verification_uri: `${String(vars['auth_url'])}/login/device`, expires_in: 900, interval: 5 });
    const poll = () => post('/login/oauth/access_token', { client_id: String(vars['device_client_id']), device_code: String(d['device_code']), grant_type: DEVICE_GRANT_TYPE }, 'application/json');
    await clock.advance(5000);
    expect(JSON.parse((await poll()).text)).toMatchObject({ error: 'authorization_pending' });
    expect(JSON.parse((await poll()).text)).toMatchObject({ error: 'slow_down', interval: 10 });
    expect(await ref.agent!.perform('approve-device', { user_code: d['user_code'] })).toMatchObject({ accepted: true, outcome: 'authorized' });
    await clock.advance(10_000);
    expect(JSON.parse((await poll()).text)).toMatchObject({ token_type: 'bearer', scope: 'repo' });
    const polls = ref.server.log.forPath('/login/oauth/access_token').filter((e) => e.params['device_code'] === d['device_code']);
    expect(polls.map((e) => e.at - clock.now())).toEqual([-10_000, -10_000, 0]);
  });

  it('answers XML and refuses CORS pre-flight', async () => {
    const x = await post('/login/device/code', { client_id: String(vars['device_client_id']) }, 'application/xml');
    expect(x.text).toMatch(/<OAuth><device_code>[0-9a-f]{40}<\/device_code><user_code>/);
    const pre = await request(`${String(vars['auth_url'])}/login/oauth/authorize`, { method: 'OPTIONS', headers: { origin: 'http://app.example.test', 'access-control-request-method': 'GET' } });
    await pre.body.dump();
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('moves its clock through the hook and acts through the agent bridge', async () => {
    const before = clock.now();
    const res = await request(`${String(vars['auth_url'])}/__specgate/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 1000 }) });
    expect(await res.body.json()).toEqual({ now: before + 1000 });
    const b = await request(`${String(vars['auth_url'])}/__specgate/agent/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: { client_id: vars['client_id'] } }) });
    expect(await b.body.json()).toMatchObject({ outcome: 'redirected' });
  });
});
