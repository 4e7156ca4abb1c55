import type { FuzzOptions } from '../../../src/engine/suite-module.js';

/**
 * The engine's fuzz options plus `gating`: the IDs of the requirements whose findings fail the
 * search, by their level as `specgate run` gates them (MUST; SHOULD with --strict; STRICTER
 * with --stricter). The CLI passes it beside the options the engine declares; without it every
 * finding fails the search.
 */
export interface GatedFuzzOptions extends FuzzOptions {
  gating?: ReadonlySet<string>;
}

function isStringSet(v: unknown): v is ReadonlySet<string> {
  return v instanceof Set && [...(v as Set<unknown>)].every((x) => typeof x === 'string');
}

/** Whether a finding of a requirement fails the search under these options. */
export function gatesOf(opts: FuzzOptions): (requirement: string) => boolean {
  if ('gating' in opts && isStringSet(opts.gating)) {
    const gating = opts.gating;
    return (id) => gating.has(id);
  }
  return () => true;
}
