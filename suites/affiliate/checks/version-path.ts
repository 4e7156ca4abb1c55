import { defineCheck } from '../../../src/engine/checks/contract.js';
import { failure, success, textVar } from './support.js';

/**
 * `affiliate.versionPath`: the autologin path contains /api/v2 (Versioning 2). The request goes
 * to the autologin operation as the target serves it (a profile's `paths:` applied), apart
 * from the path rule of E2 (`autologin-path` asks the spec's own path): a platform that serves
 * autologin elsewhere below /api/v2 breaks E2, not this.
 */
export const versionPath = defineCheck<Record<string, never>>({
  description: 'the autologin operation, as the target serves it, answers below /api/v2',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: 'case',
  async run(ctx) {
    const res = await ctx.request({ operation: 'autologin', query: { leadRequestID: textVar(ctx, 'lead_request_id') } });
    const sent = res.exchange.request;
    const url = sent !== null && typeof sent === 'object' && 'url' in sent && typeof sent.url === 'string' ? sent.url : '';
    let path = '';
    try {
      path = new URL(url).pathname;
    } catch {
      path = url;
    }
    if (!success(res)) ctx.fail(failure(`autologin at ${path} answered ${res.status}, so its path is not where the platform serves it (a profile's paths: maps it)`, res));
    else if (!/(^|\/)api\/v2\//.test(path)) ctx.fail(failure(`autologin is served at ${path}, which does not contain /api/v2`, res, { expected: '/api/v2/...', actual: path }));
  },
});
