import type { CaseDef } from './model.js';

// A module of its own, apart from the runtime: what reads cases without running them (the
// variables a target must set, `init`) asks it too.

/** A case whose steps let time pass (and so needs the target clock to itself). */
function hasStaticWait(def: CaseDef): boolean {
  return def.steps.some((s) => 'wait' in s || (typeof s.repeat === 'object' && s.repeat.wait !== undefined && s.repeat.wait !== 0));
}

/** Whether a case needs time to pass: tagged `time-bound`, or a step that waits. */
export function isTimeBound(def: CaseDef): boolean {
  return Boolean(def.tags?.includes('time-bound')) || hasStaticWait(def);
}
