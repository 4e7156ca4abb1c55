import { describe, expect, it } from 'vitest';
import { suiteLoadErrors } from '../../helpers/suite-load-errors.js';
import { suite } from '../../../suites/oauth/index.js';

/**
 * The oauth checks' contracts reach the loader: a misspelt argument, a requirement a check
 * cannot judge, or a variable nothing sets is a load error naming file:line:column.
 */
const loadErrors = suiteLoadErrors(suite);

describe('oauth check contracts at load time', () => {
  it('loads a case that uses the fragments, a check-set variable and an attributed expect', () => {
    expect(
      loadErrors(`- id: probe
  requirements: [OAUTH-DEVICE-PENDING]
  tags: [time-bound]
  steps:
    - check: oauth.deviceStart
      with: { scope: repo }
    - wait: "\${interval}"
    - request: { use: device-poll }
      capture: { answer: $.error }
    - check: oauth.expect
      with: { value: "\${answer}", matches: authorization_pending, requirement: OAUTH-DEVICE-PENDING }
`),
    ).toEqual([]);
  });

  it('refuses a misspelt argument, with its position', () => {
    const errors = loadErrors(`- id: probe
  requirements: [OAUTH-DEVICE-PENDING]
  steps:
    - check: oauth.deviceStart
      with: { scop: repo }
    - request: { use: device-poll }
      expect: { body: { error: authorization_pending } }
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/probe\.yaml:5:\d+: .*oauth\.deviceStart.*scop/);
  });

  it('refuses a requirement the check cannot judge, and one the case does not list', () => {
    const errors = loadErrors(`- id: probe
  requirements: [OAUTH-REVIEW-PAGE, OAUTH-DEVICE-PENDING]
  steps:
    - check: oauth.reviewRevokes
    - check: oauth.redirectTable
      with: { client_id: "\${client_id}", callback: "\${callback_url}" }
- id: probe-attributed
  requirements: [OAUTH-REVIEW-PAGE]
  steps:
    - check: oauth.reviewRevokes
    - check: oauth.expect
      with: { value: 1, matches: 1, requirement: OAUTH-CODE-EXPIRY }
`);
    // nothing judges OAUTH-DEVICE-PENDING: the redirect table judges only redirect rules
    expect(errors.some((m) => /probe\.yaml:2:\d+: no step of case "probe" judges OAUTH-DEVICE-PENDING/.test(m))).toBe(true);
    expect(errors.some((m) => /probe\.yaml:12:\d+: "OAUTH-CODE-EXPIRY" is not one of this case's requirements/.test(m))).toBe(true);
    expect(errors).toHaveLength(2);
  });

  it('refuses a variable that nothing sets before it is read', () => {
    const errors = loadErrors(`- id: probe
  requirements: [OAUTH-DEVICE-PENDING]
  tags: [time-bound]
  steps:
    - wait: "\${interval}"
    - check: oauth.deviceStart
    - request: { use: device-poll, form: { client_id: "\${device_clientid}" } }
      expect: { body: { error: authorization_pending } }
`);
    expect(errors.some((m) => /probe\.yaml:5:\d+: reads \$\{interval\}, which nothing sets before this step/.test(m))).toBe(true);
    expect(errors.some((m) => /reads \$\{device_clientid\}.*did you mean \$\{device_client_id\}/.test(m))).toBe(true);
  });
});
