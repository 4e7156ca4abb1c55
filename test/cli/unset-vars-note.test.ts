/**
 * cli/unset-vars-note.ts: the notes on optional variables a profile leaves unset, read from the
 * suites as the run loaded them (run's onLoaded) rather than loaded a second time.
 */
import { describe, expect, it } from 'vitest';
import { loadSuites } from '../../src/engine/load-suites.js';
import type { RunResult } from '../../src/engine/model.js';
import type { TargetChoice } from '../../src/engine/target-setup.js';
import { suite as oauth } from '../../suites/oauth/index.js';
import { unsetOptionalNotes } from '../../cli/unset-vars-note.js';

const loaded = loadSuites([oauth], ['oauth']);
const clientCases = (loaded.suites[0]?.cases ?? []).filter((c) => c.id.startsWith('client-device-')).map((c) => c.id);
// the run skipped the client cases: the profile sets no client_command
const result = { suites: [{ name: 'oauth', cases: clientCases.map((id) => ({ id, outcome: 'skipped' })) }] } as unknown as RunResult;
const targets: Record<string, TargetChoice> = { oauth: { section: { vars: {} }, label: 'a profile', secrets: [] } };

describe('unsetOptionalNotes', () => {
  it('names the unset variable with the cases it skipped, from the suites the run loaded', () => {
    expect(clientCases.length).toBeGreaterThan(3);
    // a module whose folder is gone: loading it again would throw, so the note comes from `loaded`
    const gone = { ...oauth, dir: '/nonexistent/specgate-suite' };
    expect(() => loadSuites([gone], ['oauth'])).toThrow();
    const notes = unsetOptionalNotes([gone], result, targets, [], loaded);
    expect(notes.some((n) => n.startsWith('optional variable client_command is not set in suites.oauth.vars') && n.includes(`${clientCases.length} cases skipped`))).toBe(true);
  });

  it('loads the suites itself when the run did not pass them, with the same notes', () => {
    expect(unsetOptionalNotes([oauth], result, targets)).toEqual(unsetOptionalNotes([oauth], result, targets, [], loaded));
  });
});

describe('a run that skipped nothing', () => {
  it('has no notes, and reads no suite for them', () => {
    const passed = { suites: [{ name: 'oauth', cases: clientCases.map((id) => ({ id, outcome: 'passed' })) }] } as unknown as RunResult;
    const gone = { ...oauth, dir: '/nonexistent/specgate-suite' };
    expect(() => loadSuites([gone], ['oauth'])).toThrow();
    expect(unsetOptionalNotes([gone], passed, targets)).toEqual([]);
  });
});
