import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';
import { OPTIONAL_ROWS, optionalFields, validLead, type OptionalRow } from './lead-fields.js';
import { at, failure, success, unmet } from './support.js';

/** The rules of registration (E1) and of the autologin target of a lead just registered (E2). */
type Rule = 'form' | 'success' | 'optional' | 'extras' | 'unique' | 'redirect' | 'autologin';

async function register(ctx: CheckContext, form: Record<string, string>): Promise<CheckResponse> {
  return ctx.request({ operation: 'registerLead', form });
}

const idOf = (res: CheckResponse): unknown => at(res.body, 'details.leadRequest.ID');

/** A status in the 2xx range: the platform took the request. */
const taken = (res: CheckResponse): boolean => res.status >= 200 && res.status < 300;

/**
 * Registers a valid lead as a step the case rests on. A valid form-encoded registration that is
 * refused breaks AFF-REGISTER-FORM; one taken with a status other than 200/201, or answered
 * without leadRequest.ID, breaks AFF-REGISTER-SUCCESS. Either ends the case blocked by that rule
 * (or fails it when the case judges it), so one deviation of registration is charged once.
 * Undefined when the case cannot go on.
 */
export async function registered(ctx: CheckContext, form: Record<string, string> = validLead(ctx)): Promise<{ res: CheckResponse; id: string } | undefined> {
  const res = await register(ctx, form);
  if (!taken(res)) {
    unmet(ctx, 'AFF-REGISTER-FORM', `a valid form-encoded registration answered ${res.status}; expected it registered (200, or 201)`, res);
    return undefined;
  }
  const id = idOf(res);
  if (!success(res) || typeof id !== 'string') {
    unmet(ctx, 'AFF-REGISTER-SUCCESS', `a valid registration answered ${res.status}${typeof id === 'string' ? '' : ' without details.leadRequest.ID'}; expected 200 (or 201) with the ID`, res);
    return undefined;
  }
  return { res, id };
}

/**
 * `affiliate.register`: registers leads, each with an e-mail address of its own, and judges one
 * rule: the form-encoded body is taken (2xx), the answer is 200 or 201 with the details, one row
 * of optional fields (`field`) and the sample's extra `custom` and `currency` are accepted, leadRequest.ID differs
 * between registrations, redirect.url is an absolute URL, and the autologin target of the lead
 * just registered is answered. Every rule but form and success first registers a plain valid
 * lead (see {@link registered}): when that does not hold, the case is blocked by the rule that
 * broke, not failed.
 */
export const registerLead = defineCheck<{ rule: Rule; field?: OptionalRow }>({
  description: 'registers leads (form-encoded, own e-mail each) and judges one rule of E1, or the autologin target of the lead just registered',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['rule'],
    properties: { rule: { enum: ['form', 'success', 'optional', 'extras', 'unique', 'redirect', 'autologin'] }, field: { enum: [...OPTIONAL_ROWS] } },
  },
  judges: 'case',
  async run(ctx, args) {
    const fail = (message: string, res?: CheckResponse, more: { expected?: unknown; actual?: unknown } = {}): void => ctx.fail(failure(message, res, more));
    switch (args.rule) {
      case 'form': {
        // the body's encoding is what this rule judges: taken at all (the exact status is AFF-REGISTER-SUCCESS's)
        const res = await register(ctx, validLead(ctx));
        if (!taken(res)) fail(`a valid form-encoded registration answered ${res.status}; expected it taken (200, or 201)`, res, { expected: [200, 201], actual: res.status });
        return;
      }
      case 'success': {
        const res = await register(ctx, validLead(ctx));
        // a refused form is AFF-REGISTER-FORM's: this rule judges what a taken registration answers
        if (!taken(res)) return ctx.blocked('AFF-REGISTER-FORM', `a valid form-encoded registration answered ${res.status}`, res.exchange);
        if (!success(res)) return fail(`a valid registration answered ${res.status}; expected 200 (or 201)`, res, { expected: [200, 201], actual: res.status });
        const missing = ['details.leadRequest.ID', 'details.advertiser.name', 'details.advertiser.logo', 'details.offer.ID', 'details.offer.name', 'details.offer.hash', 'details.redirect.url'].filter((p) => typeof at(res.body, p) !== 'string');
        if (!Array.isArray(at(res.body, 'details.postbacks'))) missing.push('details.postbacks (an array)');
        if (missing.length) fail(`the registration answer lacks ${missing.join(', ')}`, res);
        return;
      }
      case 'optional': {
        // one row of the table a case: the rule is that this optional field may be sent
        const row = args.field ?? 'custom';
        if (!(await registered(ctx))) return;
        const fields = optionalFields(row);
        const res = await register(ctx, { ...validLead(ctx), ...fields });
        if (!success(res)) fail(`a registration carrying the optional ${Object.keys(fields).join(', ')} answered ${res.status}, while one with the required fields only was registered; expected 200 (or 201)`, res);
        return;
      }
      case 'extras': {
        if (!(await registered(ctx))) return;
        const res = await register(ctx, { ...validLead(ctx), custom: 'specgate-custom', currency: 'EUR' });
        if (!success(res)) fail(`a registration carrying custom and currency (as the sample sends them) answered ${res.status}, while one without them was registered; expected 200 (or 201)`, res);
        return;
      }
      case 'unique': {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const got = await registered(ctx);
          if (!got) return;
          if (ids.includes(got.id)) return fail(`registration ${i + 1} answered leadRequest.ID ${got.id}, the ID of an earlier registration`, got.res, { actual: [...ids, got.id] });
          ids.push(got.id);
        }
        ctx.observed(undefined, ids.length);
        return;
      }
      case 'redirect': {
        const got = await registered(ctx);
        if (!got) return;
        const url = at(got.res.body, 'details.redirect.url');
        // no URL at all is the answer's shape, AFF-REGISTER-SUCCESS's; this rule judges the URL given
        if (typeof url !== 'string') return ctx.blocked('AFF-REGISTER-SUCCESS', 'the registration answer has no details.redirect.url string', got.res.exchange);
        let parsed: URL | undefined;
        try {
          parsed = new URL(url);
        } catch {
          parsed = undefined;
        }
        if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) fail(`details.redirect.url is ${JSON.stringify(url)}; expected the absolute http(s) autologin URL`, got.res);
        return;
      }
      case 'autologin': {
        const got = await registered(ctx);
        if (!got) return;
        const target = await ctx.request({ operation: 'autologin', query: { leadRequestID: got.id } });
        if (target.status !== 200) return fail(`the autologin target of lead ${got.id}, registered just before, answered ${target.status}; expected 200`, target, { expected: 200, actual: target.status });
        if (typeof at(target.body, 'details.url') !== 'string') fail(`the autologin target of lead ${got.id} has no details.url`, target);
        return;
      }
    }
  },
});

/**
 * `affiliate.newLead`: registers one valid lead (an e-mail address of its own) so that the lists
 * read after it hold a record of this run. It judges nothing: registration has cases of its own,
 * and a list read after a registration that failed is judged on the records it holds.
 */
export const newLead = defineCheck<Record<string, never>>({
  description: 'registers one valid lead, so the lead list read next holds a record; judges nothing itself',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: [],
  async run(ctx) {
    await register(ctx, validLead(ctx));
  },
});
