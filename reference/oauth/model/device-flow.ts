import type { Clock } from '../../../src/engine/clock.js';
import { findApp, type Directory } from './directory.js';
import type { IdSource } from './ids.js';
import { DEVICE_GRANT_TYPE, HOUR_MS, type Limits } from './limits.js';
import { RateWindow } from './rate-window.js';
import { parseScopes } from './scopes.js';
import type { Token, TokenStore } from './tokens.js';

/**
 * The device flow state machine (spec 000, B, States and transitions; B, Endpoints 4 and 5;
 * B, Errors "Device flow error codes"). All times come from the clock.
 */
export type DeviceStatus = 'pending' | 'authorized' | 'denied' | 'redeemed';

export interface DeviceGrant {
  deviceCode: string;
  userCode: string;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  /** Current minimum seconds between polls; raised by 5 at each slow_down. */
  interval: number;
  /** The previous request about this device code (issue, then every poll). */
  lastRequestAt: number;
  status: DeviceStatus;
  userId?: number;
}

export type DeviceErrorCode =
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'unsupported_grant_type'
  | 'incorrect_client_credentials'
  | 'incorrect_device_code'
  | 'access_denied'
  | 'device_flow_disabled';

export interface DeviceError {
  ok: false;
  error: DeviceErrorCode;
  description: string;
  /** The new interval, with slow_down. */
  interval?: number;
}

export type StartResult = { ok: true; grant: DeviceGrant } | DeviceError;
export type PollResult = { ok: true; token: Token } | DeviceError;

export interface PollParams {
  client_id?: string;
  device_code?: string;
  grant_type?: string;
}

/** Outcome of entering a user code in the browser (B, Limits "user code submissions"). */
export type EntryResult =
  | { ok: true; grant: DeviceGrant }
  | { ok: false; reason: 'unknown' | 'rate-limited' | 'expired' | 'used' };

export interface DeviceFlowDeps {
  clock: Clock;
  ids: IdSource;
  limits: Limits;
  directory: Directory;
  tokens: TokenStore;
  newDeviceCode(ids: IdSource): string;
  newUserCode(ids: IdSource): string;
}

export class DeviceFlow {
  protected readonly byDeviceCode = new Map<string, DeviceGrant>();
  protected readonly submissions: RateWindow;

  constructor(protected readonly deps: DeviceFlowDeps) {
    this.submissions = new RateWindow(deps.limits.userCodeSubmissionsPerHour, HOUR_MS);
  }

  /** POST {auth_url}/login/device/code (B, Endpoints 4; B, Authentication 2). */
  start(clientId: string | undefined, scope: string | undefined): StartResult {
    const app = findApp(this.deps.directory, clientId);
    if (!app) return err('incorrect_client_credentials', 'The client_id is wrong or missing.');
    if (!app.deviceFlowEnabled) return err('device_flow_disabled', 'The device flow is not enabled for this application.');
    const now = this.deps.clock.now();
    const grant: DeviceGrant = {
      deviceCode: this.deps.newDeviceCode(this.deps.ids),
      userCode: this.deps.newUserCode(this.deps.ids),
      clientId: app.clientId,
      scopes: parseScopes(scope),
      issuedAt: now,
      expiresAt: now + this.deps.limits.deviceTtlSeconds * 1000,
      interval: this.deps.limits.defaultIntervalSeconds,
      lastRequestAt: now,
      status: 'pending',
    };
    this.byDeviceCode.set(grant.deviceCode, grant);
    return { ok: true, grant };
  }

  /** POST {auth_url}/login/oauth/access_token, device polling (B, Endpoints 5). */
  poll(p: PollParams): PollResult {
    const app = findApp(this.deps.directory, p.client_id);
    if (!app) return err('incorrect_client_credentials', 'The client_id is wrong or missing; client_secret is not needed.');
    if (!app.deviceFlowEnabled) return err('device_flow_disabled', 'The device flow is not enabled for this application.');
    if (p.grant_type !== DEVICE_GRANT_TYPE) return err('unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE}.`);
    const grant = p.device_code ? this.byDeviceCode.get(p.device_code) : undefined;
    if (!grant || grant.clientId !== app.clientId || grant.status === 'redeemed') return err('incorrect_device_code', 'The device_code is not valid.');
    const now = this.deps.clock.now();
    const previous = grant.lastRequestAt;
    grant.lastRequestAt = now;
    if (grant.status === 'denied') return err('access_denied', 'The user cancelled the authorization.');
    if (grant.status === 'authorized' && grant.userId !== undefined) {
      grant.status = 'redeemed';
      return { ok: true, token: this.deps.tokens.create(grant.userId, grant.clientId, grant.scopes, 'device', now) };
    }
    if (this.isExpired(grant, now)) {
      return err('expired_token', 'The device code expired (token_expired); request a new device code.');
    }
    if (this.tooSoon(grant, previous, now)) {
      grant.interval = this.raisedInterval(grant.interval);
      return { ...err('slow_down', `Polled sooner than the interval; wait ${grant.interval} seconds between requests.`), interval: grant.interval };
    }
    return err('authorization_pending', 'The user has not yet entered the user code.');
  }

  /** The user types a user code at {auth_url}/login/device. */
  enterUserCode(typed: string): EntryResult {
    const grant = this.findByUserCode(typed);
    if (!grant) return { ok: false, reason: 'unknown' };
    const now = this.deps.clock.now();
    if (this.submissions.full(grant.clientId, now)) return { ok: false, reason: 'rate-limited' };
    this.submissions.record(grant.clientId, now);
    if (grant.status !== 'pending') return { ok: false, reason: 'used' };
    if (this.isExpired(grant, now)) return { ok: false, reason: 'expired' };
    return { ok: true, grant };
  }

  /** The user authorizes the device within the 900 seconds. */
  authorize(userCode: string, userId: number): EntryResult {
    const grant = this.usable(userCode);
    if (!grant.ok) return grant;
    grant.grant.status = 'authorized';
    grant.grant.userId = userId;
    return grant;
  }

  /** The user clicks cancel: polls answer access_denied, the user code is spent. */
  deny(userCode: string): EntryResult {
    const grant = this.usable(userCode);
    if (!grant.ok) return grant;
    this.spendOnDenial(grant.grant);
    return grant;
  }

  grant(deviceCode: string): DeviceGrant | undefined {
    return this.byDeviceCode.get(deviceCode);
  }

  protected spendOnDenial(grant: DeviceGrant): void {
    grant.status = 'denied';
  }

  /** 900 seconds after issue, a code nobody authorized is expired. */
  protected isExpired(grant: DeviceGrant, now: number): boolean {
    return now >= grant.expiresAt;
  }

  protected tooSoon(grant: DeviceGrant, previous: number, now: number): boolean {
    return now - previous < grant.interval * 1000;
  }

  protected raisedInterval(interval: number): number {
    return interval + this.deps.limits.slowDownStepSeconds;
  }

  protected findByUserCode(typed: string): DeviceGrant | undefined {
    const norm = normalizeUserCode(typed);
    for (const g of this.byDeviceCode.values()) if (g.userCode === norm) return g;
    return undefined;
  }

  private usable(userCode: string): EntryResult {
    const grant = this.findByUserCode(userCode);
    if (!grant) return { ok: false, reason: 'unknown' };
    if (grant.status !== 'pending') return { ok: false, reason: 'used' };
    if (this.isExpired(grant, this.deps.clock.now())) return { ok: false, reason: 'expired' };
    return { ok: true, grant };
  }
}

/** People type codes in any case and may drop the hyphen. */
export function normalizeUserCode(typed: string): string {
  const t = typed.trim().toUpperCase();
  return /^[A-Z0-9]{8}$/.test(t) ? `${t.slice(0, 4)}-${t.slice(4)}` : t;
}

function err(error: DeviceErrorCode, description: string): DeviceError {
  return { ok: false, error, description };
}
