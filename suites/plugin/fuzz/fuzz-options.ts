import type { FuzzOptions } from '../../../src/engine/suite-module.js';

/** Whether a finding of a requirement fails the search under these options (FuzzOptions.gating; absent: every finding does). */
export function gatesOf(opts: FuzzOptions): (requirement: string) => boolean {
  const gating = opts.gating;
  return gating ? (id) => gating.has(id) : () => true;
}
