import { defineCheck } from '../../../src/engine/checks/contract.js';
import { mentions } from './expect-value.js';
import { need } from './support.js';

/** Why the case does not apply to a target whose profile gives no personal access token. */
export const NO_PERSONAL_TOKEN =
  "the target profile gives no personal access token (vars.personal_access_token): one is made on the platform's token settings page, which the spec does not show, so only a token the profile gives can be tried on the API";

/**
 * `oauth.personalTokenUser` (spec 000, B, What the service does and Authentication 3-4): a
 * personal access token is the non-web way to a user's access token, and API calls carry
 * `Authorization: Bearer <ACCESS_TOKEN>`, so GET {api_url}/user with the profile's personal
 * access token must return its user (user_login, in any field: the user's fields are not shown
 * in the spec). The token is read here rather than in the case's steps, so that a profile
 * without one gets a case that does not apply instead of a run that stops for a missing variable.
 */
export const personalTokenUser = defineCheck({
  description: "GET {api_url}/user with the profile's personal access token as the bearer token returns its user (not applicable without one)",
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: ['OAUTH-PAT-BEARER'],
  async run(ctx) {
    const token = ctx.vars['personal_access_token'];
    if (typeof token !== 'string' || token === '') ctx.notApplicable(NO_PERSONAL_TOKEN);
    const login = need(ctx, 'user_login');
    const res = await ctx.request({ method: 'GET', url: `${need(ctx, 'api_url')}/user`, headers: { Authorization: `Bearer ${token}` }, accept: 'json' });
    const requirement = 'OAUTH-PAT-BEARER';
    if (res.status !== 200) {
      ctx.fail({ requirement, message: `GET {api_url}/user with the personal access token as the bearer token answered HTTP ${res.status}, not the user`, expected: { status: 200 }, actual: { status: res.status }, exchange: res.exchange });
    } else if (!mentions(res.body, login)) {
      ctx.fail({ requirement, message: `GET {api_url}/user with the personal access token must name its user ${login} (in any field: the user's fields are not shown in the spec)`, expected: login, actual: res.body, exchange: res.exchange });
    }
  },
});
