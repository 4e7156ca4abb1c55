import type { Clock } from '../../../src/engine/clock.js';
import { DeviceFlow, type DeviceFlowDeps } from './device-flow.js';
import { seededDirectory, type Directory, type User } from './directory.js';
import { newDeviceCode, newUserCode, seededIds, type IdSource } from './ids.js';
import { SPEC_LIMITS, type Limits } from './limits.js';
import { checkChallenge, checkVerifier } from './pkce.js';
import { matchRedirect } from './redirect.js';
import { encodeFields, negotiateFormat } from './formats.js';
import { TokenStore } from './tokens.js';
import { WebFlow, type WebFlowDeps } from './web-flow.js';

/**
 * The pure rules the platform applies, gathered so that a planted-fault fixture can replace
 * one of them (e.g. a redirect matcher that ignores the port) without the shipping reference
 * carrying fault switches.
 */
export interface PlatformRules {
  matchRedirect: typeof matchRedirect;
  checkChallenge: typeof checkChallenge;
  checkVerifier: typeof checkVerifier;
  newDeviceCode: typeof newDeviceCode;
  newUserCode: typeof newUserCode;
  negotiateFormat: typeof negotiateFormat;
  encodeFields: typeof encodeFields;
}

export const SPEC_RULES: Readonly<PlatformRules> = Object.freeze({
  matchRedirect,
  checkChallenge,
  checkVerifier,
  newDeviceCode,
  newUserCode,
  negotiateFormat,
  encodeFields,
});

export interface PlatformOptions {
  clock: Clock;
  seed?: number;
  limits?: Partial<Limits>;
  rules?: Partial<PlatformRules>;
  directory?: Directory;
  /** Replace a part with a subclass (planted faults override its protected steps). */
  parts?: {
    tokens?: (limits: Limits, ids: IdSource) => TokenStore;
    web?: (deps: WebFlowDeps) => WebFlow;
    device?: (deps: DeviceFlowDeps) => DeviceFlow;
  };
}

/** The whole platform of spec 000 part B as state on a clock, with no I/O. */
export class Platform {
  readonly clock: Clock;
  readonly limits: Limits;
  readonly rules: PlatformRules;
  readonly directory: Directory;
  readonly tokens: TokenStore;
  readonly web: WebFlow;
  readonly device: DeviceFlow;
  private readonly personal = new Map<number, string>();

  constructor(opts: PlatformOptions) {
    this.clock = opts.clock;
    this.limits = { ...SPEC_LIMITS, ...opts.limits };
    this.rules = { ...SPEC_RULES, ...opts.rules };
    this.directory = opts.directory ?? seededDirectory();
    const ids = seededIds(opts.seed ?? 20260101);
    this.tokens = opts.parts?.tokens?.(this.limits, ids) ?? new TokenStore(this.limits, ids);
    const common = { clock: this.clock, ids, limits: this.limits, directory: this.directory, tokens: this.tokens };
    const webDeps: WebFlowDeps = {
      ...common,
      matchRedirect: this.rules.matchRedirect,
      checkChallenge: this.rules.checkChallenge,
      checkVerifier: this.rules.checkVerifier,
    };
    this.web = opts.parts?.web?.(webDeps) ?? new WebFlow(webDeps);
    const deviceDeps: DeviceFlowDeps = { ...common, newDeviceCode: this.rules.newDeviceCode, newUserCode: this.rules.newUserCode };
    this.device = opts.parts?.device?.(deviceDeps) ?? new DeviceFlow(deviceDeps);
  }

  /** GET {api_url}/user: the user a bearer token belongs to (B, Endpoints 3). */
  userForToken(token: string | undefined): User | undefined {
    const t = token ? this.tokens.lookup(token) : undefined;
    return t ? this.directory.users.find((u) => u.id === t.userId) : undefined;
  }

  /**
   * The user's personal access token, made on first ask. The token settings page where a person
   * makes one is not shown in the spec, so the reference hands it to its variables instead.
   */
  personalAccessToken(userId: number): string {
    const made = this.personal.get(userId) ?? this.tokens.createPersonal(userId, this.clock.now()).value;
    this.personal.set(userId, made);
    return made;
  }

  signIn(login: string | undefined, password: string | undefined): User | undefined {
    const u = this.directory.users.find((x) => x.login === login);
    return u && u.password === password ? u : undefined;
  }
}
