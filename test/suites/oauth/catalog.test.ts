import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { suite } from '../../../suites/oauth/index.js';
import { isClientCase } from '../../fixtures/oauth/clients/cli.js';

/** The oauth catalog and cases: valid files, every server-side requirement covered or excluded. */
describe('oauth catalog and cases', () => {
  const { suites } = loadSuites([suite], ['oauth']);
  const loaded = suites[0];
  if (!loaded) throw new Error('oauth suite did not load');

  it('loads (schemas, names of checks, generators, oracles and schemas all resolve)', () => {
    expect(loaded.requirements.length).toBeGreaterThan(60);
    expect(loaded.cases.length).toBeGreaterThan(50);
  });

  it('covers every server-side requirement that is not excluded, and names only known ones', () => {
    const ids = new Set(loaded.requirements.map((r) => r.id));
    const covered = new Set(loaded.cases.flatMap((c) => c.requirements));
    for (const id of covered) expect(ids.has(id), `case names unknown requirement ${id}`).toBe(true);
    const open = loaded.requirements.filter((r) => !r.excluded && !r.id.startsWith('OAUTH-CLIENT-') && !covered.has(r.id)).map((r) => r.id);
    expect(open).toEqual([]);
  });

  it('leaves client-side obligations to the client-side cases', () => {
    const serverCases = loaded.cases.filter((c) => !isClientCase(c));
    expect(serverCases.flatMap((c) => c.requirements).filter((id) => id.startsWith('OAUTH-CLIENT-'))).toEqual([]);
    expect(loaded.requirements.filter((r) => r.id.startsWith('OAUTH-CLIENT-')).length).toBeGreaterThanOrEqual(10);
  });

  it('starts every suite file with its schema comment', () => {
    const dir = suite.dir;
    expect(readFileSync(join(dir, 'requirements.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/requirements.schema.json');
    for (const f of readdirSync(join(dir, 'cases'))) {
      expect(readFileSync(join(dir, 'cases', f), 'utf8').split('\n')[0], f).toBe('# yaml-language-server: $schema=../../../schemas/cases.schema.json');
    }
  });

  it('marks every case that lets time pass as time-bound, and every case that revokes as running alone', () => {
    for (const c of loaded.cases) {
      const text = JSON.stringify(c.steps);
      if (/"wait"|deviceModel|pollSchedule|token(Multiplicity|CreationRate)|userCodeRate/.test(text)) expect(c.tags ?? [], c.id).toContain('time-bound');
      else if (/"revoke"|reviewRevokes/.test(text)) expect((c.tags ?? []).some((t) => t === 'time-bound' || t === 'exclusive'), c.id).toBe(true);
    }
  });
});
