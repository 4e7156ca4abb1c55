/**
 * The rules a suite's statement trace (trace.yaml) is held to, as pure functions so that the
 * rules themselves are tested on small samples (test/suites/trace.test.ts) before they judge
 * the built-in suites.
 */
import type { Requirement } from '../../src/engine/model.js';
import { matchTrace } from '../../src/engine/trace/trace-coverage.js';
import type { SpecStatement } from '../../src/engine/trace/spec-statements.js';
import type { Trace } from '../../src/engine/model.js';

/** A suite as the audit sees it: its name, catalog and trace. */
export interface TracedSuite {
  name: string;
  requirements: readonly Requirement[];
  trace: Trace;
}

/**
 * Every mismatch between the traces of one document's suites and the document: an entry
 * whose quote is not in the document (or is in several statements), a statement of a suite's
 * interfaces without an entry, and a statement of no suite's interface (under no lettered
 * heading, or under the letter of an interface no suite judges) that no suite's trace names.
 */
export function documentProblems(statements: readonly SpecStatement[], suites: readonly TracedSuite[]): string[] {
  const problems: string[] = [];
  const claimed = new Set<number>();
  const letters = new Set(suites.flatMap((s) => s.trace.interfaces ?? []));
  for (const s of suites) {
    const m = matchTrace(s.trace, statements, `suites/${s.name}/trace.yaml`);
    problems.push(...m.problems.map((p) => p.message));
    for (const i of m.claimed) claimed.add(i);
  }
  statements.forEach((s, i) => {
    if (claimed.has(i) || s.interfaces.some((l) => letters.has(l))) return;
    problems.push(`line ${s.line} (${s.section}) belongs to no suite's interfaces and no suite's trace names it: "${s.text.slice(0, 100)}"`);
  });
  return problems;
}

/** Requirements of the catalog that no statement of the trace names: a rule the spec does not state, or a trace that misses it. */
export function untracedRequirements(suite: TracedSuite): string[] {
  const named = new Set(suite.trace.statements.flatMap((e) => e.requirements ?? []));
  return suite.requirements.filter((r) => !named.has(r.id)).map((r) => r.id);
}
