import { expect } from 'vitest';
import type { ClientEvidence } from '../../suites/ctx-auth/checks/client-evidence.js';
import { CLIENT_JUDGES } from '../../suites/ctx-auth/checks/client-judges.js';
import type { ClientVerdict } from '../../suites/ctx-auth/checks/client-verdicts.js';

/** The verdict of the ctx-auth client judge of requirement `id` on `ev`; throws when no judge has that ID. */
export function judge(id: string, ev: ClientEvidence): ClientVerdict {
  const j = CLIENT_JUDGES[id];
  if (!j) throw new Error(`no judge for ${id}`);
  return j(ev);
}

/** A pass (with what it judged: how many runs or requests showed the rule). */
export const PASS: unknown = expect.objectContaining({ ok: true });

/** A failure whose message matches `pattern`, for `toMatchObject`. */
export const failing = (pattern: RegExp): Record<string, unknown> => ({ ok: false, message: expect.stringMatching(pattern) });
