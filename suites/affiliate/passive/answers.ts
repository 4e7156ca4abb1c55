import { schemaProblems } from '../../../src/engine/api/schema-validate.js';
import { responseSchema } from '../../../src/engine/api/table.js';
import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRule, PassiveRuleFinding, PassiveView } from '../../../src/engine/suite-module.js';
import { carriesKey, isSuccess, objectOf, parsedBody, shown, verdict } from './recorded.js';

/**
 * What every success says of itself (spec 001, E. Affiliate resources, Errors 1, E2-E7): a
 * success's envelope and shape, and the lead records a lead list holds, hold of any answer of
 * its kind whatever was asked and whatever came before. Each recorded success to a request with
 * the key is judged, whatever JSON its body holds (an array or a bare value breaks the envelope
 * and the shape); a body cut by the recorder, or not JSON, is not (no piece is judged).
 */

/** The successes to requests with the key whose body was kept whole and parsed as JSON, in recording order. */
function successes(view: PassiveView, operation?: string): MatchedExchange[] {
  const xs = operation === undefined ? view.exchanges : (view.byOperation.get(operation) ?? []);
  return xs.filter((x) => isSuccess(x.recorded.status) && carriesKey(x, view.table) && parsedBody(x) !== undefined);
}

/**
 * E. Affiliate resources, Errors 1: a success carries message (null) and the server object.
 * `envelope` is the suite's schema of it (schemas/envelope.json), which api.yaml names for no
 * status of its own (each answer's schema holds it).
 */
export const successEnvelope = (envelope: object): PassiveRule => ({
  description: 'Every recorded success (200 or 201) carries the envelope, with message null',
  requirements: ['AFF-ENVELOPE-SERVER', 'AFF-ENVELOPE-MESSAGE-NULL'],
  judge(view) {
    const withEnvelope = { ...view.table, schemas: { ...view.table.schemas, [ENVELOPE]: envelope } };
    const judged = successes(view);
    const server: PassiveRuleFinding[] = [];
    const message: PassiveRuleFinding[] = [];
    for (const x of judged) {
      for (const p of schemaProblems(withEnvelope, ENVELOPE, parsedBody(x))) server.push({ message: `${p} (the ${x.recorded.status} answer breaks schema ${ENVELOPE})`, expected: { $schema: ENVELOPE }, exchange: x });
      const m = objectOf(parsedBody(x))?.['message'];
      if (m !== null) message.push({ message: `message is ${shown(m)} in a ${x.recorded.status} answer`, expected: null, actual: m ?? '(absent)', exchange: x });
    }
    const none = 'no success (200 or 201) to a request with the key was recorded';
    return [verdict('AFF-ENVELOPE-SERVER', judged.length, server, none), verdict('AFF-ENVELOPE-MESSAGE-NULL', judged.length, message, none)];
  },
});

/** The envelope schema's qualified name, as the cases name it (`schema: affiliate/envelope`). */
const ENVELOPE = 'affiliate/envelope';

/**
 * E2-E7: each read operation's success and the requirement of its shape; a list's records are
 * the evidence where the shape is that of records (none judged leaves it untested).
 */
const SHAPES: Readonly<Record<string, { requirement: string; records?: true }>> = {
  autologin: { requirement: 'AFF-AUTOLOGIN-SHAPE' },
  offers: { requirement: 'AFF-OFFERS-SHAPE' },
  leads: { requirement: 'AFF-LEADS-SHAPE', records: true },
  conversions: { requirement: 'AFF-CONVERSIONS-SHAPE', records: true },
  income: { requirement: 'AFF-INCOME-SHAPE' },
  postbacks: { requirement: 'AFF-POSTBACKS-SHAPE', records: true },
};

/** E2-E7: every recorded success of a read operation has the shape of its table (the schema api.yaml names for 200). */
export const answerShapes: PassiveRule = {
  description: 'Every recorded success of a read operation (autologin, offers, leads, conversions, income, postbacks) has its shape',
  requirements: Object.values(SHAPES).map((s) => s.requirement),
  judge(view) {
    return Object.entries(SHAPES).map(([operation, shape]) => {
      let observations = 0;
      const findings: PassiveRuleFinding[] = [];
      for (const x of successes(view, operation)) {
        // a 201 to a read operation is still its success: judged on the schema named for 200
        const schema = responseSchema(x.operation, x.recorded.status) ?? responseSchema(x.operation, 200);
        if (!schema) continue;
        const body = parsedBody(x);
        const problems = schemaProblems(view.table, schema, body);
        for (const p of problems) findings.push({ message: `${p} (the ${x.recorded.status} answer breaks schema ${schema})`, expected: { $schema: schema }, exchange: x });
        const items = objectOf(body)?.['items'];
        observations += shape.records && !problems.length ? (Array.isArray(items) ? items.length : 0) : 1;
      }
      return verdict(shape.requirement, observations, findings, shape.records ? `no ${operation} record was recorded in a success` : `no success of ${operation} was recorded`);
    });
  },
};

/** E. Affiliate resources: the flags and the unique leadRequestIDEncoded of the leads one recorded lead list holds. */
export const leadRecords: PassiveRule = {
  description: 'In every recorded lead list, each lead has isSmartClick "0" or "1" and hasFTD 0 or 1, and no two leads share leadRequestIDEncoded',
  requirements: ['AFF-LEADS-FLAGS', 'AFF-LEADS-ID-ENCODED-UNIQUE'],
  judge(view) {
    let leads = 0;
    let lists = 0;
    const flags: PassiveRuleFinding[] = [];
    const unique: PassiveRuleFinding[] = [];
    for (const x of successes(view, 'leads')) {
      const items = objectOf(parsedBody(x))?.['items'];
      if (!Array.isArray(items)) continue;
      const seen = new Map<string, number>();
      items.forEach((item, i) => {
        const lead = objectOf(item);
        if (!lead) return;
        leads++;
        const smart = lead['isSmartClick'];
        const ftd = lead['hasFTD'];
        if (smart !== '0' && smart !== '1') flags.push({ message: `items[${i}].isSmartClick is ${shown(smart)}, not the string "0" or "1"`, expected: ['0', '1'], actual: smart ?? '(absent)', exchange: x });
        if (ftd !== 0 && ftd !== 1) flags.push({ message: `items[${i}].hasFTD is ${shown(ftd)}, not the integer 0 or 1`, expected: [0, 1], actual: ftd ?? '(absent)', exchange: x });
        const id = lead['leadRequestIDEncoded'];
        if (typeof id !== 'string') return;
        const first = seen.get(id);
        if (first !== undefined) unique.push({ message: `items[${first}] and items[${i}] both carry leadRequestIDEncoded ${JSON.stringify(id)}`, expected: 'a leadRequestIDEncoded of its own per lead', actual: id, exchange: x });
        else seen.set(id, i);
      });
      // one list of two or more IDs is one observation: a single lead cannot repeat one
      if (items.filter((l) => typeof objectOf(l)?.['leadRequestIDEncoded'] === 'string').length >= 2) lists++;
    }
    return [
      verdict('AFF-LEADS-FLAGS', leads, flags, 'no lead was recorded in a lead list'),
      verdict('AFF-LEADS-ID-ENCODED-UNIQUE', lists, unique, 'no recorded lead list holds two leads'),
    ];
  },
};
