import type { TargetChoice } from './target-setup.js';

/**
 * The run's suites (by index) in stretches that may run side by side, in order. A suite whose
 * profile section has a clock hook runs alone: its time-bound cases move the service's clock,
 * which another suite of the same service would see move under its own cases.
 */
export function sideBySide(selected: readonly { suite: { name: string } }[], targets: Readonly<Record<string, TargetChoice | undefined>>): number[][] {
  const stretches: number[][] = [];
  let open: number[] = [];
  selected.forEach(({ suite }, i) => {
    if (!targets[suite.name]?.section?.clock) {
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
