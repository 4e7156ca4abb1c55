/**
 * The default HTTP deadline is the one the target-profile schema and docs/targets.md state: a
 * target that never answers, under a profile that sets no `http.timeoutMs`, is cut off then.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { HTTP_DEFAULTS } from '../../src/targets/http-client.js';
import { assertBuilt, caseOf, demoSection, reportOf, runDemo, tempDir, writeProfile } from './cli.js';
import { silentServer, type Hostile } from './hostile-targets.js';

const tmp = tempDir();
let silent: Hostile | undefined;
beforeAll(() => assertBuilt());
afterAll(async () => {
  await silent?.stop();
  tmp.remove();
});

/** The documented defaults: the profile schema's `http` descriptions and the profile example of docs/targets.md. */
function documentedDefaults(): { schema: { timeoutMs: number; maxBodyBytes: number }; page: { timeoutMs: number; maxBodyBytes: number } } {
  const schema = JSON.parse(readFileSync(fromRoot('schemas/target-profile.schema.json'), 'utf8')) as {
    definitions: { suite: { properties: { http: { properties: Record<string, { description: string }> } } } };
  };
  const http = schema.definitions.suite.properties.http.properties;
  const fromDescription = (key: string): number => Number(/\(default (\d+)\)/.exec(http[key]?.description ?? '')?.[1]);
  const line = /^\s+http: \{ timeoutMs: (\d+), maxBodyBytes: (\d+) \}\s+# the defaults/m.exec(readFileSync(fromRoot('docs', 'targets.md'), 'utf8'));
  return {
    schema: { timeoutMs: fromDescription('timeoutMs'), maxBodyBytes: fromDescription('maxBodyBytes') },
    page: { timeoutMs: Number(line?.[1]), maxBodyBytes: Number(line?.[2]) },
  };
}

describe('default HTTP deadline', () => {
  it('the schema, docs/targets.md and the client state the same defaults', () => {
    const docs = documentedDefaults();
    expect(docs.schema).toEqual({ timeoutMs: HTTP_DEFAULTS.timeoutMs, maxBodyBytes: HTTP_DEFAULTS.maxBodyBytes });
    expect(docs.page).toEqual(docs.schema);
  });

  it('a target that never answers is cut off at the documented default, not later', async () => {
    silent = await silentServer();
    const url = silent.url;
    const profile = writeProfile(tmp.dir, 'silent', { suites: { demo: demoSection(url) } });
    const started = Date.now();
    const run = await runDemo(tmp.dir, ['--target', profile, '--case', 'hello-world', '--case-timeout', '120000']);
    const elapsed = Date.now() - started;
    const c = caseOf(reportOf(run), 'hello-world');
    expect([c.outcome, c.errorCode]).toEqual(['errored', 'SG_TARGET_TIMEOUT']);
    expect(c.reason).toContain(`did not complete within ${documentedDefaults().schema.timeoutMs} ms`);
    expect(elapsed).toBeLessThan(documentedDefaults().schema.timeoutMs + 8000);
    expect(run.code).toBe(3);
  }, 60_000);
});
