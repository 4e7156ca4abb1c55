import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { DEVICE_GRANT_TYPE, Platform } from '../../../reference/oauth/model/index.js';

function setup() {
  const clock = new VirtualClock();
  const p = new Platform({ clock, seed: 7 });
  const start = p.device.start('sg-device-app', 'repo');
  if (!start.ok) throw new Error('start failed');
  const poll = (over: Partial<Record<'client_id' | 'device_code' | 'grant_type', string>> = {}) =>
    p.device.poll({ client_id: 'sg-device-app', device_code: start.grant.deviceCode, grant_type: DEVICE_GRANT_TYPE, ...over });
  const after = (s: number) => clock.advance(s * 1000);
  return { clock, p, grant: start.grant, poll, after };
}

describe('device flow state machine (spec 000, B, States and transitions)', () => {
  it('issues a 40-character device code and a XXXX-XXXX user code with expires_in 900', () => {
    const { grant } = setup();
    expect(grant.deviceCode).toHaveLength(40);
    expect(grant.userCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((grant.expiresAt - grant.issuedAt) / 1000).toBe(900);
    expect(grant.interval).toBe(5);
  });

  it('answers authorization_pending, then slow_down with interval + 5 that sticks', async () => {
    const { poll, after } = setup();
    await after(5);
    expect(poll()).toMatchObject({ ok: false, error: 'authorization_pending' });
    await after(2);
    expect(poll()).toMatchObject({ ok: false, error: 'slow_down', interval: 10 });
    await after(6); // past the old interval, inside the new one
    expect(poll()).toMatchObject({ ok: false, error: 'slow_down', interval: 15 });
    await after(15);
    expect(poll()).toMatchObject({ ok: false, error: 'authorization_pending' });
  });

  it('returns a token once the user authorizes, then the device code is spent', async () => {
    const { p, grant, poll, after } = setup();
    expect(p.device.enterUserCode(grant.userCode.toLowerCase())).toMatchObject({ ok: true });
    expect(p.device.authorize(grant.userCode, 1001)).toMatchObject({ ok: true });
    await after(5);
    const r = poll();
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.token.scopes).toEqual(['repo']);
    await after(5);
    expect(poll()).toMatchObject({ ok: false, error: 'incorrect_device_code' });
  });

  it('cancel gives access_denied and spends the user code', async () => {
    const { p, grant, poll, after } = setup();
    expect(p.device.deny(grant.userCode)).toMatchObject({ ok: true });
    await after(5);
    expect(poll()).toMatchObject({ ok: false, error: 'access_denied' });
    expect(p.device.enterUserCode(grant.userCode)).toEqual({ ok: false, reason: 'used' });
  });

  it('expires after 900 seconds with a description naming token_expired', async () => {
    const { p, grant, poll, after } = setup();
    await after(899);
    expect(poll()).toMatchObject({ error: 'authorization_pending' });
    await after(1);
    const r = poll();
    expect(r).toMatchObject({ ok: false, error: 'expired_token' });
    if (!r.ok) expect(r.description).toContain('token_expired');
    expect(p.device.enterUserCode(grant.userCode)).toEqual({ ok: false, reason: 'expired' });
  });

  it('reports each request fault with its own error', () => {
    const { p, poll } = setup();
    expect(poll({ grant_type: 'authorization_code' })).toMatchObject({ error: 'unsupported_grant_type' });
    expect(poll({ grant_type: '' })).toMatchObject({ error: 'unsupported_grant_type' });
    expect(poll({ client_id: 'nope' })).toMatchObject({ error: 'incorrect_client_credentials' });
    expect(poll({ client_id: '' })).toMatchObject({ error: 'incorrect_client_credentials' });
    expect(poll({ device_code: 'f'.repeat(40) })).toMatchObject({ error: 'incorrect_device_code' });
    expect(poll({ client_id: 'sg-legacy-app' })).toMatchObject({ error: 'device_flow_disabled' });
    expect(p.device.start('sg-legacy-app', '')).toMatchObject({ ok: false, error: 'device_flow_disabled' });
  });

  it('limits user code submissions to 50 per hour per application', async () => {
    const { p, clock } = setup();
    const codes = Array.from({ length: 51 }, () => {
      const s = p.device.start('sg-device-app', '');
      if (!s.ok) throw new Error('start');
      return s.grant.userCode;
    });
    for (const c of codes.slice(0, 50)) expect(p.device.enterUserCode(c).ok).toBe(true);
    expect(p.device.enterUserCode(codes[50] ?? '')).toEqual({ ok: false, reason: 'rate-limited' });
    await clock.advance(3_600_000);
    const fresh = p.device.start('sg-device-app', '');
    if (!fresh.ok) throw new Error('start');
    expect(p.device.enterUserCode(fresh.grant.userCode).ok).toBe(true);
  });
});
