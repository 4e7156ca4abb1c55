import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { renderTap } from '../../src/reporting/tap.js';
import { makeRunResult, REPLAY } from '../fixtures/reporting/run-result.js';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from './xmllint.js';

/** Test points with their YAML diagnostics, parsed the way a TAP 13 consumer reads them. */
function points(tap: string): { line: string; diag?: Record<string, unknown> }[] {
  const lines = tap.split('\n');
  const out: { line: string; diag?: Record<string, unknown> }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!/^(not )?ok /.test(line)) continue;
    if (lines[i + 1] === '  ---') {
      const end = lines.indexOf('  ...', i + 2);
      const body = lines.slice(i + 2, end).map((l) => l.slice(2)).join('\n');
      out.push({ line, diag: parseYaml(body, { intAsBigInt: true }) as Record<string, unknown> });
      i = end;
    } else {
      out.push({ line });
    }
  }
  return out;
}

describe('renderTap', () => {
  const tap = renderTap(makeRunResult());
  const pts = points(tap);

  it('is TAP 13 with a plan matching its numbered test points', () => {
    expect(tap.startsWith('TAP version 13\n1..9\n')).toBe(true);
    expect(pts.map((p) => /^(?:not )?ok (\d+) /.exec(p.line)?.[1])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(tap).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('maps outcomes to ok / not ok / SKIP / TODO', () => {
    expect(pts[0]?.line).toBe('ok 1 - oauth/device-code-issued [OAUTH-DEVICE-CODE-RESPONSE]');
    expect(pts[1]?.line).toBe('not ok 2 - oauth/device-poll-too-fast [OAUTH-DEVICE-SLOW-DOWN]');
    expect(pts[3]?.line).toMatch(/^ok 4 - oauth\/device-code-expiry \[OAUTH-TOKEN-EXPIRY\] # SKIP time-bound: /);
    expect(pts[4]?.line).toBe('not ok 5 - oauth/pkce-plain-rejected [OAUTH-PKCE-PLAIN] # TODO expected failure (baseline)');
    expect(pts[5]?.diag?.message).toMatch(/^listed in the baseline as expected to fail/);
    expect(pts[7]?.line).toBe('not ok 8 - plugin/(suite setup)');
  });

  it('holds message, requirement, expected and actual in the YAML block, int64 exact (as strings a YAML reader cannot round)', () => {
    const d = pts[1]?.diag;
    expect(d?.message).toMatch(/^OAUTH-DEVICE-SLOW-DOWN: body.error differs: <&>"' nul\uFFFD/);
    expect(d?.severity).toBe('fail');
    expect(d?.requirement).toBe('OAUTH-DEVICE-SLOW-DOWN');
    expect(d?.expected).toEqual({ error: 'slow_down', interval: 10n, id: '123456789012345678901234567890' });
    expect(d?.actual).toMatchObject({ error: 'authorization_pending', id: '9007199254740993' });
    // read as a YAML reader without big integers reads it (js-yaml, PyYAML's limits): nothing rounds
    const block = tap.slice(tap.indexOf('not ok 2 -'), tap.indexOf('\n  ...', tap.indexOf('not ok 2 -')));
    expect(block).toContain('id: "9007199254740993"');
    expect(block).not.toMatch(/id: 9007199254740993/);
    expect(d?.at).toEqual({ file: 'suites/oauth/device.yaml', line: 20n, column: 3n });
    expect(pts[2]?.diag).toMatchObject({ seed: 1337n, path: '7:2:0', replay: REPLAY });
    expect(pts[6]?.diag).toMatchObject({ severity: 'error', code: 'SG_TARGET_TIMEOUT', requirement: 'OAUTH-USER-CODE-CHARSET' });
  });

  it('escapes # and \\ in descriptions so they are not read as directives', () => {
    const run = makeRunResult();
    const c = run.suites[0]?.cases[0];
    if (!c) throw new Error('fixture changed');
    c.id = 'issue #12 \\ x';
    expect(renderTap(run)).toContain('ok 1 - oauth/issue \\#12 \\\\ x [OAUTH-DEVICE-CODE-RESPONSE]\n');
  });
});

const tapJunitBin = join(dirname(createRequire(import.meta.url).resolve('tap-junit/package.json')), 'bin', 'tap-junit');

/** Runs the tap-junit CLI on `tap` and returns the path of the XML it wrote. */
function tapJunit(tap: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-tapjunit-'));
  const r = spawnSync(process.execPath, [tapJunitBin, '--output', dir, '--name', 'tap.xml', '--classname', 'specgate'], { input: tap, encoding: 'utf8' });
  // tap-junit exits 1 when the TAP has failures; anything else (a crash) is a real problem.
  expect(r.status, r.stderr).toBe(1);
  return join(dir, 'tap.xml');
}

declarePeer(xmllint);

describe.skipIf(xmllint.skip)('tap-junit round trip', () => {
  let file = '';
  beforeAll(() => {
    file = tapJunit(renderTap(makeRunResult()));
  });
  const q = (expr: string) => xpath(file, expr);

  it('keeps every test point, name, outcome and message', () => {
    expect(q('string(/testsuites/testsuite/@name)')).toBe('specgate');
    expect(q('string(/testsuites/@tests)')).toBe('9');
    expect(q('count(//testcase/skipped)')).toBe('2');
    expect(q('string(//testcase[2]/@name)')).toBe('oauth/device-poll-too-fast [OAUTH-DEVICE-SLOW-DOWN]');
    expect(q('string(//testcase[2]/failure/@message)')).toBe('OAUTH-DEVICE-SLOW-DOWN: body.error differs: <&>"\' nul\uFFFD bell\uFFFD emoji😀 lone\uFFFD cdata]]> end');
    // `severity` keeps errored apart from failed after conversion.
    expect(q('count(//testcase/failure[@type="error"])')).toBe('2');
    expect(q('count(//testcase/failure[@type="fail"])')).toBe('4');
  });

  it('fails junit-10.xsd only for tap-junit\'s own omissions, and validates once those are patched', () => {
    const raw = validate(file);
    expect(raw.ok).toBe(false);
    expect(raw.errors.length).toBeGreaterThan(0);
    // tap-junit 5.0.4 never writes testsuite/@errors (required) and always writes testcase/@id (not allowed).
    for (const e of raw.errors) {
      expect(e).toMatch(/The attribute 'errors' is required but missing|attribute 'id': The attribute 'id' is not allowed|fails to validate/);
    }
    const patched = readFileSync(file, 'utf8').replace(/<testsuite /g, '<testsuite errors="0" ').replace(/ id="\d+"/g, '');
    const fixed = `${file}.patched.xml`;
    writeFileSync(fixed, patched);
    expect(validate(fixed)).toEqual({ ok: true, errors: [] });
  });
});
