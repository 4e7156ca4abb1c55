/**
 * The numbers part B of the platform specification fixes (spec 000, B, "Limits").
 * Kept as data so a planted-fault fixture can hand the model other numbers without the
 * shipping reference growing conditionals.
 */
export interface Limits {
  /** Temporary web-flow code validity: 10 minutes (B, Limits; B, Resources). */
  codeTtlMs: number;
  /** Device code and user code validity, and `expires_in`: 900 seconds (B, Limits). */
  deviceTtlSeconds: number;
  /** Minimum polling interval handed out with a new device code (seconds). */
  defaultIntervalSeconds: number;
  /** Seconds each `slow_down` adds to the interval (B, Errors, slow_down). */
  slowDownStepSeconds: number;
  /** Tokens kept per user/application/scope combination before the oldest is revoked. */
  tokensPerCombination: number;
  /** Token creations per hour before the browser shows a re-authorization prompt. */
  tokenCreationsPerHour: number;
  /** User code submissions in the browser per hour per application. */
  userCodeSubmissionsPerHour: number;
}

export const HOUR_MS = 3_600_000;

/** The values of spec 000, part B, Limits table. */
export const SPEC_LIMITS: Readonly<Limits> = Object.freeze({
  codeTtlMs: 10 * 60_000,
  deviceTtlSeconds: 900,
  defaultIntervalSeconds: 5,
  slowDownStepSeconds: 5,
  tokensPerCombination: 10,
  tokenCreationsPerHour: 10,
  userCodeSubmissionsPerHour: 50,
});

/** `grant_type` of device polling (B, Endpoints 5). */
export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
