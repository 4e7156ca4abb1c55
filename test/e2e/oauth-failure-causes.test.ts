/**
 * Failure messages that name their cause, end to end: `specgate run` (compiled, its own
 * process) judges the oauth suite through a target profile against the reference platform
 * with three planted faults, served from this test on 127.0.0.1:
 *
 * - the device authorization advertises expires_in=600 while device codes live the spec's 900
 *   seconds: the expires_in rule fails, and the expiry case, which waits the advertised 600 and
 *   so sees no expired_token, is blocked by it (its own finding kept as evidence);
 * - the device authorization always answers form-encoded, JSON asked for or not: only the
 *   JSON format rule fails, with typed comparisons that say they met text (the value cases
 *   read a value alike in every format);
 * - the code exchange, asked for JSON, answers a gateway's HTML page.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFields } from '../../reference/oauth/model/formats.js';
import { Platform } from '../../reference/oauth/model/platform.js';
import { OffsetClock } from '../../reference/oauth/server/clock-hook.js';
import { servedVars } from '../../reference/oauth/server/reference-target.js';
import { startOAuthServer, type RunningOAuthServer } from '../../reference/oauth/server/server.js';
import { profileYaml } from '../../reference/oauth/server/standalone.js';
import { assertBuilt, caseOf, readReport, runCli, tempDir, type JsonReport } from './cli.js';
import { failedAssertions } from '../helpers/verdicts.js';

const GATEWAY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body>upstream unavailable</body></html>';

/** The reference platform with the three faults above, its clock moved through the profile's hook. */
async function plantedPlatform(): Promise<RunningOAuthServer> {
  const clock = new OffsetClock();
  const platform = new Platform({
    clock,
    rules: {
      encodeFields: (fields, format) =>
        fields.some(([k]) => k === 'device_code') ? encodeFields(fields.map(([k, v]) => [k, k === 'expires_in' ? 600 : v] as const), 'form') : encodeFields(fields, format),
    },
  });
  return startOAuthServer({
    clock,
    platform,
    port: 0,
    intercept: (req) =>
      req.url.pathname === '/login/oauth/access_token' && req.params['code'] !== undefined && (req.headers['accept'] ?? '').includes('json')
        ? { status: 200, contentType: 'text/html; charset=utf-8', body: GATEWAY_PAGE }
        : undefined,
  });
}

const CASES = ['device-expires-in-default', 'device-interval-integer', 'device-code-response-json', 'device-code-expires-after-900-seconds', 'token-type-is-bearer'];

describe('the oauth suite against a platform that advertises 600 seconds, answers form and HTML', () => {
  const tmp = tempDir('specgate-causes-');
  let server: RunningOAuthServer | undefined;
  let report: JsonReport;
  let code: number | null;

  beforeAll(async () => {
    assertBuilt();
    server = await plantedPlatform();
    const profile = join(tmp.dir, 'profile.yaml');
    writeFileSync(profile, profileYaml('oauth reference with planted faults', servedVars(server)));
    const json = join(tmp.dir, 'results.json');
    const run = await runCli(['run', '--suite', 'oauth', '--target', profile, '--case', CASES.join(','), '--seed', '7', '--report', `json=${json}`], { cwd: tmp.dir });
    code = run.code;
    report = readReport(json);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    tmp.remove();
  });

  const failures = (id: string): { requirement: string; message: string }[] => {
    const c = caseOf(report, id);
    expect([c.outcome, c.reason]).toEqual(['failed', null]);
    return failedAssertions(c.failures).map((f) => ({ requirement: f.requirement, message: f.message }));
  };

  it('fails the run on the three faults and nothing else; the expiry rule is blocked by the advertised expiry', () => {
    expect(code).toBe(1);
    expect(report.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort()).toEqual([
      'OAUTH-DEVICE-EXPIRES-IN',
      'OAUTH-DEVICE-FORMAT-JSON',
      'OAUTH-TOKEN-TYPE-BEARER',
    ]);
    const expired = report.requirements.find((r) => r.id === 'OAUTH-DEVICE-EXPIRED-TOKEN');
    expect([expired?.status, expired?.blockedBy]).toEqual(['blocked', ['OAUTH-DEVICE-EXPIRES-IN']]);
  });

  it('names the advertised expires_in the blocked expiry case waited, and the step and request it came from', () => {
    const c = caseOf(report, 'device-code-expires-after-900-seconds');
    expect([c.outcome, c.reason]).toEqual(['skipped', 'blocked by OAUTH-DEVICE-EXPIRES-IN, which failed in case device-expires-in-default']);
    const expired = (c.blockedFailures ?? []).find((f) => f.requirement === 'OAUTH-DEVICE-EXPIRED-TOKEN');
    // the device code is a credential the platform issued: named, masked (docs/reports.md)
    expect(expired?.message).toMatch(
      /^\$\.error: expected "expired_token", got "authorization_pending" — relying on values the target advertised: device_code="\*\*\*"…, interval=5, expires_in=600 \(captured from step 1, check oauth\.deviceStart: POST \/login\/device\/code\)$/,
    );
  });

  it('charges the form-encoded answer to the JSON format rule alone, saying typed comparisons met text', () => {
    const json = failures('device-code-response-json');
    expect(new Set(json.map((f) => f.requirement))).toEqual(new Set(['OAUTH-DEVICE-FORMAT-JSON']));
    expect(json.map((f) => f.message)).toContain('$.expires_in: expected a number, got the text "600" (the answer was form-encoded, which carries no types, although the request asked for JSON)');
    // the value cases read the value whatever the format: the interval is fine, the expiry is the advertised 600
    expect(caseOf(report, 'device-interval-integer').outcome).toBe('passed');
    expect(failures('device-expires-in-default').map((f) => f.requirement)).toEqual(['OAUTH-DEVICE-EXPIRES-IN']);
  });

  it('leads with the decoding error when the JSON asked for is an HTML page', () => {
    const [only, ...more] = failures('token-type-is-bearer');
    expect(more).toEqual([]);
    expect(only?.requirement).toBe('OAUTH-TOKEN-TYPE-BEARER');
    // the authorization code is a credential the platform issued: named, masked (docs/reports.md)
    expect(only?.message).toMatch(
      /^the body is not JSON: Unexpected token .+ \(it came with Content-Type text\/html; first bytes: "<html><head><title>502 Bad Gateway<\/titl"…\) — relying on values the target advertised: auth_code="\*\*\*" \(captured from step 1, user agent: approve\)$/,
    );
  });
});
