import type { CaseDef } from './model.js';

// A module of its own, apart from the runtime: what reads cases without running them (the
// variables a target must set, `init`) asks it too.

/** A case whose steps let time pass (and so needs the target clock to itself). */
function hasStaticWait(def: CaseDef): boolean {
  // a plain loop: this is asked of every case, more than once, on the way of every run
  const { steps } = def;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as CaseDef['steps'][number];
    if ('wait' in s) return true;
    const { repeat } = s;
    if (typeof repeat === 'object' && repeat.wait !== undefined && repeat.wait !== 0) return true;
  }
  return false;
}

/** Whether a case needs time to pass: tagged `time-bound`, or a step that waits. */
export function isTimeBound(def: CaseDef): boolean {
  return (def.tags !== undefined && def.tags.includes('time-bound')) || hasStaticWait(def);
}
