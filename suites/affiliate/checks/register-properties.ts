import fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { OPTIONAL_FIELDS, REQUIRED_FIELDS, optionalFields, uniqueTag, validLead, type RequiredField } from './lead-fields.js';
import { registered } from './registration.js';
import { failure, notErrorAnswer } from './support.js';

/** A generated lead request: the required fields, some optional ones. */
const leadArb = fc.record({
  firstName: fc.stringMatching(/^[A-Z][a-z]{1,11}$/),
  lastName: fc.stringMatching(/^[A-Z][a-z]{1,14}$/),
  password: fc.stringMatching(/^[A-Za-z0-9!#%]{8,20}$/),
  ip: fc.ipV4(),
  phone: fc.stringMatching(/^[1-9][0-9]{6,11}$/),
  local: fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/),
  optional: fc.subarray([...OPTIONAL_FIELDS]),
});
type Lead = typeof leadArb extends fc.Arbitrary<infer T> ? T : never;

/** The form of a generated lead, its e-mail made unique at send time (a platform may refuse an address it holds). */
function formOf(ctx: CheckContext, lead: Lead): Record<string, string> {
  const extra = optionalFields();
  const form: Record<string, string> = { email: `${lead.local}+${uniqueTag(ctx)}@example.com`, firstName: lead.firstName, lastName: lead.lastName, password: lead.password, ip: lead.ip, phone: lead.phone };
  for (const name of lead.optional) form[name] = extra[name] ?? '';
  return form;
}

const requirementOf = (name: RequiredField): string => `AFF-REGISTER-REQUIRED-${name.toUpperCase()}`;

/**
 * `affiliate.registerRequired`: property over generated lead requests, one property per required
 * field: with the field removed or empty, the registration is refused with an error answer
 * (not 200/201; the error text is AFF-ERROR-MESSAGES's). fast-check shrinks a counterexample to the simplest lead the
 * platform wrongly accepted.
 */
export const registerRequired = defineCheck<{ runs?: number }>({
  description: 'generated lead requests with one required field removed or empty are refused (one property per field, shrunk)',
  args: { type: 'object', additionalProperties: false, properties: { runs: { type: 'integer', minimum: 1 } } },
  judges: REQUIRED_FIELDS.map(requirementOf),
  async run(ctx, args) {
    // the control: a complete lead is registered, or a refusal of an incomplete one cannot be told from it (blocked by the rule that broke)
    if (!(await registered(ctx))) return;
    const runs = args.runs ?? Math.max(5, Math.ceil(ctx.runs / REQUIRED_FIELDS.length));
    for (const name of REQUIRED_FIELDS) {
      const requirement = requirementOf(name);
      await ctx.property(
        fc.record({ lead: leadArb, how: fc.constantFrom<'removed' | 'empty'>('removed', 'empty') }),
        async ({ lead, how }) => {
          const form = formOf(ctx, lead);
          if (how === 'removed') delete form[name];
          else form[name] = '';
          const res = await ctx.request({ operation: 'registerLead', form });
          const why = notErrorAnswer(res, `a registration with ${name} ${how}`);
          return why ? { ...failure(`${why}; ${name} is required`, res), requirement } : undefined;
        },
        { runs, label: `lead request without ${name}` },
      );
    }
  },
});

/** Values that are not what the table says a field holds. */
const MISTYPED: Readonly<Record<'email' | 'ip' | 'areaCode', fc.Arbitrary<string>>> = {
  email: fc.oneof(fc.stringMatching(/^[a-z]{1,12}$/), fc.stringMatching(/^[a-z]{1,8}\.example\.com$/), fc.stringMatching(/^@[a-z]{1,8}\.com$/)),
  ip: fc.oneof(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom('999.1.1.1', '203.0.113', '1.2.3.4.5', '::g')),
  areaCode: fc.stringMatching(/^[a-z]{1,4}[0-9]{0,2}$/),
};

/**
 * `affiliate.registerTypes`: property over generated lead requests with one field of the wrong
 * kind (an email that is no e-mail address, an ip that is no IP address, a non-numeric
 * areaCode): the registration should be refused with an error answer.
 */
export const registerTypes = defineCheck<{ runs?: number }>({
  description: 'generated lead requests with an email, ip or areaCode of the wrong kind are refused (shrunk)',
  args: { type: 'object', additionalProperties: false, properties: { runs: { type: 'integer', minimum: 1 } } },
  judges: ['AFF-REGISTER-FIELD-TYPES'],
  async run(ctx, args) {
    // the control: a complete lead is registered, or a refusal of an incomplete one cannot be told from it (blocked by the rule that broke)
    if (!(await registered(ctx))) return;
    const runs = args.runs ?? Math.max(5, Math.ceil(ctx.runs / 3));
    for (const [name, bad] of Object.entries(MISTYPED)) {
      await ctx.property(
        fc.record({ lead: leadArb, value: bad }),
        async ({ lead, value }) => {
          const form = { ...formOf(ctx, lead), [name]: value };
          const res = await ctx.request({ operation: 'registerLead', form });
          const why = notErrorAnswer(res, `a registration with ${name}=${JSON.stringify(value)}`);
          return why ? { ...failure(`${why}; the table says ${name} is ${name === 'areaCode' ? 'numeric' : name === 'ip' ? 'an IP address' : 'an e-mail address'}`, res), requirement: 'AFF-REGISTER-FIELD-TYPES' } : undefined;
        },
        { runs, label: `lead request with a mistyped ${name}` },
      );
    }
  },
});
