/**
 * The keys the monitoring API knows (G, Authentication): one API key, and two application
 * keys, one with the permission `events_read` (the event read endpoints need it) and one
 * without. Fixed values, so a profile or a person can use them.
 */
export const MON_API_KEY = 'mon-api-5c1f0e9a7d3b4c2a8e6f1d0b9a7c5e3f';
export const MON_APP_KEY = 'mon-app-8b2d4f6a0c1e3b5d7f9a2c4e6b8d0f1a3c5e7b9d';
export const MON_APP_KEY_NO_EVENTS_READ = 'mon-app-1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b4d6f8a0c';
/**
 * An API key whose rate limit is always reached: every request with it answers Too many
 * requests (G, Errors). The spec shows no limit values, so this is how a run sees one.
 */
export const MON_API_KEY_RATE_LIMITED = 'mon-api-0e2c4a6f8b1d3e5a7c9f0b2d4e6a8c1f';

/** Permissions of an application key. */
export type AppPermission = 'events_read' | 'apm_read';

const APP_KEYS: Readonly<Record<string, readonly AppPermission[]>> = {
  [MON_APP_KEY]: ['events_read', 'apm_read'],
  [MON_APP_KEY_NO_EVENTS_READ]: ['apm_read'],
};

export function isRateLimitedApiKey(key: string | undefined): boolean {
  return key === MON_API_KEY_RATE_LIMITED;
}

export function isApiKey(key: string | undefined): boolean {
  return key === MON_API_KEY;
}

/** The permissions of an application key; undefined for a key the service does not know. */
export function appKeyPermissions(key: string | undefined): readonly AppPermission[] | undefined {
  return key === undefined ? undefined : APP_KEYS[key];
}
