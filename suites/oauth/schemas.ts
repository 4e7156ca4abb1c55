/**
 * JSON Schemas for `schema:` matchers (`oauth/<name>`), for JSON-format responses
 * (spec 000, B, Resources and their fields).
 */
export const deviceAuthorization = {
  type: 'object',
  required: ['device_code', 'user_code', 'verification_uri', 'expires_in', 'interval'],
  properties: {
    device_code: { type: 'string', minLength: 40, maxLength: 40 },
    user_code: { type: 'string', pattern: '^[^-]{4}-[^-]{4}$' },
    verification_uri: { type: 'string', minLength: 1 },
    expires_in: { type: 'integer', minimum: 1 },
    interval: { type: 'integer', minimum: 0 },
  },
} as const;

export const accessToken = {
  type: 'object',
  required: ['access_token', 'scope', 'token_type'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    scope: { type: 'string' },
    // Its value is OAUTH-TOKEN-TYPE-BEARER's business, judged by its own case.
    token_type: { type: 'string', minLength: 1 },
  },
} as const;

export const deviceError = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', minLength: 1 } },
} as const;
