/**
 * Every report leads with the root failures: each failed requirement with its replay command and
 * the requirements blocked by it (directly, or through one another); a blocked requirement is
 * never reported as a failure (JUnit: skipped, "blocked by <REQ>").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/model.js';
import { renderHtml } from '../../src/reporting/html.js';
import { renderJson } from '../../src/reporting/json.js';
import { renderJUnit } from '../../src/reporting/junit.js';
import { rootCauses } from '../../src/reporting/root-causes.js';
import { renderTap } from '../../src/reporting/tap.js';
import { makeRunResult } from '../fixtures/reporting/run-result.js';
import { validate, xmllint } from './xmllint.js';

/** The fixture run with two requirements blocked by a failed one, one of them through the other. */
function withBlocked(): RunResult {
  const run = makeRunResult();
  const oauth = run.suites[0];
  if (!oauth) throw new Error('fixture changed');
  const failing = oauth.cases.find((c) => c.id === 'device-poll-too-fast');
  if (failing) failing.replay = 'specgate run --suite oauth --case device-poll-too-fast --seed 1337';
  const path = oauth.requirements.find((v) => v.id === 'OAUTH-REDIRECT-PATH');
  const charset = oauth.requirements.find((v) => v.id === 'OAUTH-USER-CODE-CHARSET');
  if (!path || !charset) throw new Error('fixture changed');
  Object.assign(path, { status: 'blocked', blockedBy: ['OAUTH-DEVICE-SLOW-DOWN'], reason: 'blocked by OAUTH-DEVICE-SLOW-DOWN: the poll never slowed down (case redirect-uri-rules)' });
  Object.assign(charset, { status: 'blocked', blockedBy: ['OAUTH-REDIRECT-PATH'], reason: 'blocked by OAUTH-REDIRECT-PATH: it rests on the path rule (case user-code-charset)', errored: 0 });
  run.requirements = run.suites.flatMap((s) => s.requirements);
  return run;
}

describe('root failures in the reports', () => {
  it('finds each failed requirement with the command that replays it and what it blocks, transitively', () => {
    const { roots } = rootCauses(withBlocked());
    const slow = roots.find((r) => r.verdict.id === 'OAUTH-DEVICE-SLOW-DOWN');
    expect(slow?.replay).toBe('specgate run --suite oauth --case device-poll-too-fast --seed 1337');
    expect(slow?.blocks.map((v) => v.id)).toEqual(['OAUTH-REDIRECT-PATH', 'OAUTH-USER-CODE-CHARSET']);
    expect(roots.find((r) => r.verdict.id === 'OAUTH-REDIRECT-HOST')?.blocks).toEqual([]);
  });

  it('JUnit: a blocked requirement is skipped naming its blocker; the roots are a property of the requirements testsuite; the file still validates', () => {
    const xml = renderJUnit(withBlocked());
    expect(xml).toMatch(/<testcase name="OAUTH-REDIRECT-PATH \(MUST\)"[^>]*>\s*<skipped message="blocked by OAUTH-DEVICE-SLOW-DOWN: the poll never slowed down/);
    expect(xml).toMatch(/<property name="rootFailures" value="OAUTH-DEVICE-SLOW-DOWN \(MUST\): 2 requirements blocked by it: OAUTH-REDIRECT-PATH, OAUTH-USER-CODE-CHARSET; replay: specgate run --suite oauth --case device-poll-too-fast --seed 1337/);
    if (xmllint.skip) return;
    const file = join(mkdtempSync(join(tmpdir(), 'specgate-roots-')), 'junit.xml');
    writeFileSync(file, xml);
    expect(validate(file)).toEqual({ ok: true, errors: [] });
  });

  it('HTML leads with the roots, before the run metadata; TAP closes with them; JSON keeps blockedBy', () => {
    const run = withBlocked();
    const html = renderHtml(run, { version: '0.0.0', node: 'v20' });
    const roots = html.indexOf('<h2>Root failures (2)</h2>');
    expect(roots).toBeGreaterThan(0);
    expect(roots).toBeLessThan(html.indexOf('<h2>Run</h2>'));
    expect(html.slice(roots, html.indexOf('<h2>Run</h2>'))).toContain('2 requirements blocked by it: OAUTH-REDIRECT-PATH, OAUTH-USER-CODE-CHARSET');
    expect(html).toContain('value="blocked"');
    expect(renderTap(run)).toContain('# root failure: oauth OAUTH-DEVICE-SLOW-DOWN (MUST); 2 requirements blocked by it: OAUTH-REDIRECT-PATH, OAUTH-USER-CODE-CHARSET; replay: specgate run --suite oauth --case device-poll-too-fast --seed 1337');
    const json = JSON.parse(renderJson(run, '0.0.0')) as { requirements: { id: string; status: string; blockedBy: string[] | null }[] };
    expect(json.requirements.find((r) => r.id === 'OAUTH-REDIRECT-PATH')).toMatchObject({ status: 'blocked', blockedBy: ['OAUTH-DEVICE-SLOW-DOWN'] });
  });
});
