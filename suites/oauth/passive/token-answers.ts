import type { MatchedExchange, PassiveRule, PassiveRuleFinding, PassiveVerdict } from '../../../src/engine/suite-module.js';
import { answerFields, askedFormat, exchangesOf, formatProblem, isCodeExchange, isDevicePoll, OP, succeeded, verdict, type Format } from './recorded.js';

/** The access token resource's fields (B, Resources), as every format carries them. */
const TOKEN_FIELDS = ['access_token', 'scope', 'token_type'];

const WEB: Readonly<Record<Format, string>> = { form: 'OAUTH-TOKEN-FORMAT-FORM', json: 'OAUTH-TOKEN-FORMAT-JSON', xml: 'OAUTH-TOKEN-FORMAT-XML' };
const DEVICE: Readonly<Record<Format, string>> = { form: 'OAUTH-DEVICE-TOKEN-FORMAT-FORM', json: 'OAUTH-DEVICE-TOKEN-FORMAT-JSON', xml: 'OAUTH-DEVICE-TOKEN-FORMAT-XML' };
const NAMES: Readonly<Record<Format, string>> = { form: 'without Accept for JSON or XML', json: 'with Accept: application/json', xml: 'with Accept: application/xml' };

/**
 * The token endpoint's success answers (B, Endpoints 2 and 5, Resources): each in the format its
 * request asked for (form-encoded by default, a JSON object, an element OAuth) with access_token,
 * scope and token_type; token_type `bearer`; and a scope of several scopes comma-separated.
 * The code exchange's answers judge OAUTH-TOKEN-FORMAT-*, the device polls' OAUTH-DEVICE-TOKEN-FORMAT-*.
 * A masked access_token (`***`) still shows the field is there.
 */
export const tokenAnswers: PassiveRule = {
  description: 'recorded token answers: the format asked for with access_token, scope and token_type; token_type bearer; scopes comma-separated',
  requirements: [...Object.values(WEB), ...Object.values(DEVICE), 'OAUTH-TOKEN-TYPE-BEARER', 'OAUTH-TOKEN-SCOPE-COMMA'],
  judge(view) {
    const answers = exchangesOf(view, OP.token).filter((x) => succeeded(x.recorded) && !x.recorded.responseCut && (isCodeExchange(x) || isDevicePoll(x)));
    const out: PassiveVerdict[] = [];
    for (const [flow, ids] of [['code exchange', WEB], ['device poll', DEVICE]] as const) {
      const mine = answers.filter((x) => (flow === 'device poll' ? isDevicePoll(x) : isCodeExchange(x)));
      for (const format of ['form', 'json', 'xml'] as const) {
        const asked = mine.filter((x) => askedFormat(x.recorded) === format);
        const findings: PassiveRuleFinding[] = asked.flatMap((x) => {
          const problem = formatProblem(x.recorded, format, TOKEN_FIELDS);
          return problem ? [{ message: `the ${flow}'s token answer ${NAMES[format]}: ${problem}`, expected: `${format} with ${TOKEN_FIELDS.join(', ')}`, actual: x.recorded.responseText?.slice(0, 300), exchange: x }] : [];
        });
        out.push(verdict(ids[format], asked.length, findings, `no ${flow} answered with a token ${NAMES[format]} was recorded`));
      }
    }
    const typed = answers.filter((x) => answerFields(x.recorded)['token_type'] !== undefined);
    out.push(
      verdict(
        'OAUTH-TOKEN-TYPE-BEARER',
        typed.length,
        typed.flatMap((x) => (answerFields(x.recorded)['token_type'] === 'bearer' ? [] : [{ message: `the token answer's token_type is ${JSON.stringify(answerFields(x.recorded)['token_type'])}, not bearer`, expected: 'bearer', actual: answerFields(x.recorded)['token_type'], exchange: x }])),
        'no token answer with token_type was recorded',
      ),
    );
    // a scope of one cannot show its separator: only answers granting several scopes are judged
    const several = answers.filter((x) => (answerFields(x.recorded)['scope'] ?? '').split(/[\s,;]+/).filter(Boolean).length > 1);
    out.push(
      verdict(
        'OAUTH-TOKEN-SCOPE-COMMA',
        several.length,
        several.flatMap((x: MatchedExchange) => {
          const scope = answerFields(x.recorded)['scope'] ?? '';
          return /^[^, ]+(,[^, ]+)+$/.test(scope) ? [] : [{ message: `the token answer's scope ${JSON.stringify(scope)} is not a comma-separated list`, expected: scope.split(/[\s,;]+/).filter(Boolean).join(','), actual: scope, exchange: x }];
        }),
        'no token answer granting several scopes was recorded',
      ),
    );
    return out;
  },
};
