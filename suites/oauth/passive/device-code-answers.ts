import type { MatchedExchange, PassiveRule, PassiveRuleFinding, PassiveVerdict } from '../../../src/engine/suite-module.js';
import { answerFields, askedFormat, exchangesOf, formatProblem, masked, OP, succeeded, verdict, type Format } from './recorded.js';

/** The device authorization resource's fields (B, Resources); expires_in and interval are numbers in JSON. */
const FIELDS = ['device_code', 'user_code', 'verification_uri', 'expires_in', 'interval'];
const NUMBERS = ['expires_in', 'interval'];
const FORMATS: Readonly<Record<Format, string>> = { form: 'OAUTH-DEVICE-FORMAT-FORM', json: 'OAUTH-DEVICE-FORMAT-JSON', xml: 'OAUTH-DEVICE-FORMAT-XML' };
const NAMES: Readonly<Record<Format, string>> = { form: 'without Accept for JSON or XML', json: 'with Accept: application/json', xml: 'with Accept: application/xml' };
/** expires_in's default (B, Resources and Limits): the device code request has no parameter for another. */
const EXPIRES_IN = 900;

/** The page the user is sent to: {auth_url}/login/device, {auth_url} being where the device code request went. */
function verificationPage(x: MatchedExchange): string | undefined {
  const u = new URL(x.recorded.url);
  const at = u.pathname.lastIndexOf('/login/device/code');
  return at < 0 ? undefined : `${u.origin}${u.pathname.slice(0, at)}/login/device`;
}

/** One value rule over the recorded device authorizations: what is wrong with the value, or undefined. */
function values(answers: readonly MatchedExchange[], requirement: string, field: string, wrong: (v: string, x: MatchedExchange) => string | undefined, expected: (x: MatchedExchange) => unknown): PassiveVerdict {
  let judged = 0;
  let hidden = 0;
  const findings: PassiveRuleFinding[] = [];
  for (const x of answers) {
    const v = answerFields(x.recorded)[field];
    if (masked(v)) {
      hidden++;
      continue;
    }
    judged++;
    const why = v === undefined ? `the device authorization answer has no ${field}` : wrong(v, x);
    if (why) findings.push({ message: why, expected: expected(x), actual: v ?? null, exchange: x });
  }
  return verdict(requirement, judged, findings, hidden ? `the recording masks ${field} (${hidden} answer(s)): its value cannot be read` : 'no device authorization answer was recorded');
}

/**
 * The device authorization answers (B, Endpoints 4, Resources): each in the format its request
 * asked for, with the five fields (in JSON strings and numbers); device_code of 40 characters
 * (unless the recording masked it), user_code XXXX-XXXX, verification_uri {auth_url}/login/device,
 * expires_in 900, interval a whole number of seconds.
 */
export const deviceCodeAnswers: PassiveRule = {
  description: 'recorded device authorization answers: the format asked for, device_code, user_code, verification_uri, expires_in and interval',
  requirements: [...Object.values(FORMATS), 'OAUTH-DEVICE-CODE-LENGTH', 'OAUTH-DEVICE-USER-CODE-FORMAT', 'OAUTH-DEVICE-VERIFICATION-URI', 'OAUTH-DEVICE-EXPIRES-IN', 'OAUTH-DEVICE-INTERVAL'],
  judge(view) {
    const answers = exchangesOf(view, OP.deviceCode).filter((x) => succeeded(x.recorded) && !x.recorded.responseCut);
    const out: PassiveVerdict[] = (['form', 'json', 'xml'] as const).map((format) => {
      const asked = answers.filter((x) => askedFormat(x.recorded) === format);
      const findings = asked.flatMap((x) => {
        const problem = formatProblem(x.recorded, format, FIELDS, NUMBERS);
        return problem ? [{ message: `the device authorization answer ${NAMES[format]}: ${problem}`, expected: `${format} with ${FIELDS.join(', ')}`, actual: x.recorded.responseText?.slice(0, 300), exchange: x }] : [];
      });
      return verdict(FORMATS[format], asked.length, findings, `no device authorization answer ${NAMES[format]} was recorded`);
    });
    out.push(
      values(answers, 'OAUTH-DEVICE-CODE-LENGTH', 'device_code', (v) => ([...v].length === 40 ? undefined : `device_code has ${[...v].length} characters, not 40`), () => '40 characters'),
      values(answers, 'OAUTH-DEVICE-USER-CODE-FORMAT', 'user_code', (v) => (/^[^-]{4}-[^-]{4}$/.test(v) ? undefined : `user_code ${JSON.stringify(v)} is not 8 characters with a hyphen in the middle`), () => 'XXXX-XXXX'),
      values(answers, 'OAUTH-DEVICE-VERIFICATION-URI', 'verification_uri', (v, x) => (v === verificationPage(x) ? undefined : `verification_uri is ${v}, not ${verificationPage(x) ?? '{auth_url}/login/device'}`), (x) => verificationPage(x)),
      values(answers, 'OAUTH-DEVICE-EXPIRES-IN', 'expires_in', (v) => (v.trim() === String(EXPIRES_IN) ? undefined : `expires_in is ${v}, not the default ${EXPIRES_IN}`), () => EXPIRES_IN),
      values(answers, 'OAUTH-DEVICE-INTERVAL', 'interval', (v) => (/^\d+$/.test(v.trim()) ? undefined : `interval ${JSON.stringify(v)} is not a whole number of seconds`), () => 'a whole number of seconds'),
    );
    return out;
  },
};
