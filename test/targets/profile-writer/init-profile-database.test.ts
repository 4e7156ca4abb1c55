/**
 * `specgate init` for a suite whose cases talk to a database: the profile it writes has the
 * `database:` block to fill in (a placeholder a run refuses, saying what to put there), with the
 * other ways to name a database commented beside it; a suite without database cases gets none.
 */
import { describe, expect, it } from 'vitest';
import { initProfileText, type InitFacts } from '../../../src/targets/profile-writer/init-profile.js';

const base: InitFacts = { suite: 'collation', vars: [], actions: [], timeBound: [], headers: [], apiTable: false, schemaPath: 'schemas/target-profile.schema.json' };

describe('the database block of an init profile', () => {
  it('is written, to fill in, when cases send a document database commands', () => {
    const text = initProfileText({ ...base, database: { commands: ['view-not-inherited', 'key-names-binary'], queries: [] } });
    expect(text.replace(/\n\s*# /g, ' ')).toContain('The database (REQUIRED: 2 cases talk to a document database (commands): view-not-inherited, key-names-binary)');
    expect(text).toContain('    database:\n      url: "<fill in>"   # e.g. mongodb://');
    expect(text).toContain('# or: exec: "node ./my-adapter.mjs"');
  });

  it('names a SQL example for query cases, and is absent when no case talks to a database', () => {
    expect(initProfileText({ ...base, database: { commands: [], queries: ['ledger-read'] } })).toContain('# e.g. postgres://');
    expect(initProfileText({ ...base, database: { commands: [], queries: [] } })).not.toContain('database:');
    expect(initProfileText(base)).not.toContain('database:');
  });
});
