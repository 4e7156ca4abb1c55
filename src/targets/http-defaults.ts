import type { HttpLimits } from './types.js';

/**
 * Limits an http target gets when its profile says nothing (the profile schema and docs/targets.md
 * state the same; a test keeps them equal). A module of its own, so what reads a recording or a
 * profile does not load the HTTP client.
 */
export const HTTP_DEFAULTS: HttpLimits = { timeoutMs: 10_000, maxBodyBytes: 8 * 1024 * 1024 };
