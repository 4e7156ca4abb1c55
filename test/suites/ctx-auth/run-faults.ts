import type { CtxFault, FaultMode } from '../../fixtures/ctx-auth/faults/fault-kit.js';

/**
 * One generated input per property case. Each planted fault is a systematic deviation; the one
 * only a generated value shows (verifier-cut-to-43: a verifier longer than 43 characters) is
 * shown by the first pair of this seed, and almost any pair, as 43 is the shortest length allowed.
 */
export const FAULT_RUNS = 1;
export const FAULT_SEED = 7;

/**
 * The SHOULDs the clean reference fails in each mode, by design (reference.test.ts shows it):
 * a fault planted in that mode fails them too.
 */
export const MODE_FAILURES: Readonly<Record<FaultMode, readonly string[]>> = {
  default: [],
  'no-metadata': ['CTX-SRV-METADATA'],
  'no-registration': ['CTX-SRV-DCR'],
  delegation: [],
};

/**
 * The outcome a fault must show: its requirement, what the same deviation breaks by its own
 * wording, and its mode's own failures fail; what it blocks is blocked by its requirement alone.
 */
export function expectedOutcome(fault: CtxFault): { failed: string[]; blocked: Record<string, string[]> } {
  const failed = new Set([...MODE_FAILURES[fault.mode ?? 'default'], fault.requirement, ...Object.keys(fault.alsoBreaks ?? {})]);
  const blocked = Object.keys(fault.blocks ?? {}).sort().map((id): [string, string[]] => [id, [fault.requirement]]);
  return { failed: [...failed].sort(), blocked: Object.fromEntries(blocked) };
}

/** Runs `work` on every item, at most `width` at a time, keeping the items' order in the results. */
export async function inTurns<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  // one iterator shared by the lanes: each takes the next item when it is free
  const queue = items.entries();
  const lane = async (): Promise<void> => {
    for (const [i, item] of queue) results[i] = await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
