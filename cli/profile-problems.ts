import { SpecgateError } from '../src/errors.js';
import type { ProfileCheck } from './profile-check.js';

/**
 * The problems of one target profile as `specgate validate` reports them: one error whose
 * message lists every problem, grouped by where it is (the top level, then each suite's section
 * in the file's order), each line with its code, `file:line:column` and what to do. A check that
 * stopped early says so, and that more problems may follow once it is fixed.
 */
export function profileProblemsError(check: ProfileCheck): SpecgateError {
  const count = check.problems.length;
  const head = check.stopped
    ? `${check.file} is checked no further because ${check.stopped}: fix ${count === 1 ? 'this' : 'these'} first; other problems may follow:`
    : count === 1
      ? `${check.file} has a problem; fix it, then validate again:`
      : `${check.file} has ${count} problems; fix them all, then validate again (each says what to do):`;
  const lines = [head];
  for (const [title, errors] of groups(check)) {
    lines.push(`  ${title}:`);
    for (const e of errors) lines.push(`    [${e.code}] ${e.message.split('\n').join('\n      ')}`);
  }
  return new SpecgateError(check.problems[0]?.error.code ?? 'SG_CONFIG', lines.join('\n'), { file: check.file, count });
}

/** The problems by section: the top level first, then the suites in the file's order. */
function groups(check: ProfileCheck): [string, SpecgateError[]][] {
  const bySuite = new Map<string, SpecgateError[]>();
  const top: SpecgateError[] = [];
  for (const p of check.problems) {
    if (p.suite === undefined) top.push(p.error);
    else bySuite.set(p.suite, [...(bySuite.get(p.suite) ?? []), p.error]);
  }
  const order = [...check.sections, ...[...bySuite.keys()].filter((s) => !check.sections.includes(s))];
  const out: [string, SpecgateError[]][] = top.length ? [['the profile', top]] : [];
  for (const suite of order) {
    const errors = bySuite.get(suite);
    if (errors) out.push([`suites.${suite}`, errors]);
  }
  return out;
}
