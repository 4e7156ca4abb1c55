import { REDIRECT_RULES } from '../../../reference/oauth/model/redirect.js';

/**
 * What the redirect checks share: the requirements a redirect verdict can name (spec 000, B,
 * Redirect URLs; an explicit redirect_uri never falls under the default rule) and the argument
 * schemas of a candidate and of the model's verdict on it.
 */
export const REDIRECT_JUDGES: readonly string[] = [REDIRECT_RULES.host, REDIRECT_RULES.port, REDIRECT_RULES.path, REDIRECT_RULES.loopback];

/** A redirect candidate (the `oauth.redirectCandidate` generator's value). */
export interface RedirectCase {
  client_id: string;
  callback: string;
  redirect_uri: string;
  kind: string;
  state: string;
}

/** The model's verdict on a candidate (the `oauth.redirectVerdict` oracle's answer). */
export interface RedirectExpected {
  accepted: boolean;
  rule: string;
  reason: string;
}

export const redirectCaseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['client_id', 'callback', 'redirect_uri', 'kind', 'state'],
  properties: {
    client_id: { type: 'string', minLength: 1 },
    callback: { type: 'string', minLength: 1 },
    redirect_uri: { type: 'string' },
    kind: { type: 'string' },
    state: { type: 'string' },
  },
} as const;

export const redirectExpectedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['accepted', 'rule', 'reason'],
  properties: {
    accepted: { type: 'boolean' },
    rule: { enum: Object.values(REDIRECT_RULES) },
    reason: { type: 'string' },
  },
} as const;
