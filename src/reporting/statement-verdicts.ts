/**
 * How the statements of a suite's specification fared in a run: a judged statement takes the
 * worst verdict of its requirements (a failure of any of them is the statement's failure), an
 * excluded or informative statement keeps its status. The HTML report's coverage section and
 * `specgate list --trace` read statements this way.
 */
import type { RequirementStatus, RequirementVerdict } from '../engine/model.js';
import type { TracedStatement, TraceSummary } from '../engine/model.js';

/** What a statement came to in a run. */
export type StatementVerdict = RequirementStatus | 'informative';

/** Worst first: the order in which a requirement's verdict speaks for its statement. */
const WORST_FIRST: readonly RequirementStatus[] = ['failed', 'blocked', 'expected-failure', 'untested', 'not-selected', 'not-applicable', 'passed', 'excluded'];

/** A statement's verdict in a run whose requirement verdicts are `byId`. */
export function statementVerdict(s: TracedStatement, byId: ReadonlyMap<string, RequirementVerdict>): StatementVerdict {
  if (s.status === 'informative') return 'informative';
  if (s.status === 'excluded') return 'excluded';
  const statuses = s.requirements.map((id) => byId.get(id)?.status).filter((x): x is RequirementStatus => x !== undefined && x !== 'excluded');
  return WORST_FIRST.find((st) => statuses.includes(st)) ?? 'untested';
}

/** The statements of one section (or of a whole trace) by verdict. */
export function verdictCounts(statements: readonly TracedStatement[], byId: ReadonlyMap<string, RequirementVerdict>): Map<StatementVerdict, number> {
  const counts = new Map<StatementVerdict, number>();
  for (const s of statements) {
    const v = statementVerdict(s, byId);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

/** Every statement of a trace. */
export function allStatements(trace: TraceSummary): TracedStatement[] {
  return trace.sections.flatMap((s) => s.statements);
}
