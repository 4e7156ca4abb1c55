import { describe, expect, it } from 'vitest';
import { suiteLoadErrors } from '../../helpers/suite-load-errors.js';
import { suite } from '../../../suites/ctx-auth/index.js';

/**
 * The server-side checks' contracts reach the loader: a mode that does not exist, a requirement
 * a check cannot judge, or a variable nothing sets is a load error with its position, and the
 * variables the checks declare are readable by the steps after them.
 */
const loadErrors = suiteLoadErrors(suite);

describe('ctx-auth server-side check contracts at load time', () => {
  it('loads a case reading what the fragments and checks set', () => {
    expect(
      loadErrors(`- id: probe
  requirements: [CTX-SRV-CODE-CLIENT-BOUND]
  steps:
    - use: authorization
    - check: ctx-auth.client
      with: { kind: confidential, as: other }
    - request: { use: code-exchange, form: { code: "\${code}", client_id: "\${other_client_id}", client_secret: "\${other_client_secret}" } }
      expect: { status: 400 }
    - check: ctx-auth.expect
      with: { value: "\${redirected}", matches: true, requirement: CTX-SRV-CODE-CLIENT-BOUND }
`),
    ).toEqual([]);
  });

  it('refuses a mode that does not exist and a variable nothing sets, with their positions', () => {
    const errors = loadErrors(`- id: probe
  requirements: [CTX-SRV-METADATA-SHAPE]
  steps:
    - check: ctx-auth.discover
      with: { when: metadta }
    - check: ctx-auth.expect
      with: { value: "\${other_client_id}", matches: null }
`);
    expect(errors.some((m) => /probe\.yaml:5:\d+: .*ctx-auth\.discover/.test(m))).toBe(true);
    expect(errors.some((m) => /probe\.yaml:7:\d+: reads \$\{other_client_id\}, which nothing sets/.test(m))).toBe(true);
  });

  it('refuses a requirement the HTTPS check cannot judge', () => {
    const errors = loadErrors(`- id: probe
  requirements: [CTX-SRV-METADATA]
  steps:
    - use: discovery
    - check: ctx-auth.https
`);
    expect(errors.some((m) => /no step of case "probe" judges CTX-SRV-METADATA/.test(m))).toBe(true);
  });
});
