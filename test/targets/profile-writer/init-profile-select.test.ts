/**
 * `specgate init --part / --requirement`: the profile records the selection (`select:`), which a
 * run with it judges when its command line selects nothing; the written YAML reads back as it.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { initProfileText, type InitFacts } from '../../../src/targets/profile-writer/init-profile.js';

const base: InitFacts = { suite: 'events', vars: [], actions: [], timeBound: [], headers: [], apiTable: false, schemaPath: 'schemas/target-profile.schema.json' };

describe('the select: block of an init profile', () => {
  it('records the parts and the patterns, "!" ones quoted, and says flags win', () => {
    const text = initProfileText({ ...base, selection: { flags: "--part platform --requirement '!EVENTS-PLAT-MODIFIED'", cases: new Set(), select: { parts: ['platform'], requirements: ['!EVENTS-PLAT-MODIFIED'] } } });
    const profile = parse(text) as { suites: { events: { select: unknown } } };
    expect(profile.suites.events.select).toEqual({ parts: ['platform'], requirements: ['!EVENTS-PLAT-MODIFIED'] });
    expect(text.replace(/\n\s*# /g, ' ')).toContain('--part, --requirement or --case on the command line win over it.');
    expect(text.replace(/\n\s*# /g, ' ')).toContain('`specgate run --suite events --target <this file>` runs the selection (select: below records it)');
  });

  it('is absent from a profile for the whole suite', () => {
    const text = initProfileText(base);
    expect(text).not.toContain('select:');
    expect((parse(text) as { suites: { events: object } }).suites.events).not.toHaveProperty('select');
  });
});
