import { exclusiveGroup, isExclusive } from './exclusive-group.js';
import type { CaseDef } from './model.js';
import type { TargetChoice } from './target-setup.js';
import { isTimeBound } from './time-bound.js';

/**
 * Whether a suite must run with no other suite beside it: its target is a service the profile
 * names (not the embedded reference, which no other suite reaches) and either its section has a
 * clock hook (its time-bound cases move the service's clock, which another suite of the same
 * service would see move under its own cases) or some of its selected cases touch state they
 * share with every case of that service (`exclusive`, `exclusive:<group>`, time-bound): another
 * suite may be pointed at the same service, and those cases assume nothing else uses it then.
 */
function runsAlone(cases: readonly CaseDef[], choice: TargetChoice | undefined): boolean {
  const section = choice?.section;
  if (!section || choice.recording) return false;
  if (section.clock) return true;
  return cases.some((c) => isExclusive(c) || exclusiveGroup(c) !== undefined || isTimeBound(c));
}

/**
 * The run's suites (by index) in stretches that may run side by side, in order: a suite that
 * {@link runsAlone} gets a stretch of its own, between the others.
 */
export function sideBySide(selected: readonly { suite: { name: string }; cases: readonly CaseDef[] }[], targets: Readonly<Record<string, TargetChoice | undefined>>): number[][] {
  const stretches: number[][] = [];
  let open: number[] = [];
  selected.forEach(({ suite, cases }, i) => {
    if (!runsAlone(cases, targets[suite.name])) {
      open.push(i);
      return;
    }
    if (open.length) stretches.push(open);
    stretches.push([i]);
    open = [];
  });
  if (open.length) stretches.push(open);
  return stretches;
}
