import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { optionalFields, validLead } from './lead-fields.js';
import { at, failure, success } from './support.js';

/** The rules of registration (E1) and of the autologin target of a lead just registered (E2). */
type Rule = 'form' | 'success' | 'optional' | 'extras' | 'unique' | 'redirect' | 'autologin';

async function register(ctx: CheckContext, form: Record<string, string>): Promise<CheckResponse> {
  return ctx.request({ operation: 'registerLead', form });
}

const idOf = (res: CheckResponse): unknown => at(res.body, 'details.leadRequest.ID');

/**
 * `affiliate.register`: registers leads, each with an e-mail address of its own, and judges one
 * rule: the form-encoded body is accepted, the answer is 200 or 201 with the details, optional
 * fields and the sample's extra `custom` and `currency` are accepted, leadRequest.ID differs
 * between registrations, redirect.url is an absolute URL, and the autologin target of the lead
 * just registered is answered.
 */
export const registerLead = defineCheck<{ rule: Rule }>({
  description: 'registers leads (form-encoded, own e-mail each) and judges one rule of E1, or the autologin target of the lead just registered',
  args: { type: 'object', additionalProperties: false, required: ['rule'], properties: { rule: { enum: ['form', 'success', 'optional', 'extras', 'unique', 'redirect', 'autologin'] } } },
  judges: 'case',
  async run(ctx, args) {
    const fail = (message: string, res?: CheckResponse, more: { expected?: unknown; actual?: unknown } = {}): void => ctx.fail(failure(message, res, more));
    switch (args.rule) {
      case 'form':
      case 'success': {
        const res = await register(ctx, validLead(ctx));
        if (!success(res)) return fail(`a valid form-encoded registration answered ${res.status}; expected 200 (or 201)`, res, { expected: [200, 201], actual: res.status });
        if (args.rule === 'success') {
          const missing = ['details.leadRequest.ID', 'details.advertiser.name', 'details.advertiser.logo', 'details.offer.ID', 'details.offer.name', 'details.offer.hash', 'details.redirect.url'].filter((p) => typeof at(res.body, p) !== 'string');
          if (!Array.isArray(at(res.body, 'details.postbacks'))) missing.push('details.postbacks (an array)');
          if (missing.length) fail(`the registration answer lacks ${missing.join(', ')}`, res);
        }
        return;
      }
      case 'optional': {
        const all = await register(ctx, { ...validLead(ctx), ...optionalFields() });
        if (!success(all)) fail(`a registration with every optional field answered ${all.status}; expected 200 (or 201)`, all);
        const none = await register(ctx, validLead(ctx));
        if (!success(none)) fail(`a registration with the required fields only answered ${none.status}; expected 200 (or 201)`, none);
        return;
      }
      case 'extras': {
        const res = await register(ctx, { ...validLead(ctx), custom: 'specgate-custom', currency: 'EUR' });
        if (!success(res)) fail(`a registration carrying custom and currency (as the sample sends them) answered ${res.status}; expected 200 (or 201)`, res);
        return;
      }
      case 'unique': {
        const ids: unknown[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await register(ctx, validLead(ctx));
          if (!success(res) || typeof idOf(res) !== 'string') return fail(`registration ${i + 1} answered ${res.status} without details.leadRequest.ID`, res);
          if (ids.includes(idOf(res))) return fail(`registration ${i + 1} answered leadRequest.ID ${String(idOf(res))}, the ID of an earlier registration`, res, { actual: [...ids, idOf(res)] });
          ids.push(idOf(res));
        }
        return;
      }
      case 'redirect': {
        const res = await register(ctx, validLead(ctx));
        if (!success(res)) return fail(`a valid registration answered ${res.status}`, res);
        const url = at(res.body, 'details.redirect.url');
        let parsed: URL | undefined;
        try {
          parsed = typeof url === 'string' ? new URL(url) : undefined;
        } catch {
          parsed = undefined;
        }
        if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) fail(`details.redirect.url is ${JSON.stringify(url)}; expected the absolute http(s) autologin URL`, res);
        return;
      }
      case 'autologin': {
        const res = await register(ctx, validLead(ctx));
        const id = idOf(res);
        if (!success(res) || typeof id !== 'string') return fail(`a valid registration answered ${res.status} without details.leadRequest.ID`, res);
        const target = await ctx.request({ operation: 'autologin', query: { leadRequestID: id } });
        if (target.status !== 200) return fail(`the autologin target of lead ${id}, registered just before, answered ${target.status}; expected 200`, target, { expected: 200, actual: target.status });
        if (typeof at(target.body, 'details.url') !== 'string') fail(`the autologin target of lead ${id} has no details.url`, target);
        return;
      }
    }
  },
});
