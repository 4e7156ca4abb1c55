/**
 * The HTML report's coverage by specification section: for each suite with a statement trace
 * (trace.yaml), each section of its document with how many of its statements the run judged
 * and how they fared, which are excluded and why, and which state no behaviour; each
 * statement, folded, with its requirements.
 */
import type { RequirementVerdict, RunResult, SuiteResult } from '../engine/model.js';
import type { TraceSummary } from '../engine/model.js';
import { cls, esc } from './html-escape.js';
import { type StatementVerdict, allStatements, statementVerdict, verdictCounts } from './statement-verdicts.js';

/** The verdicts a section's row counts, in the order the columns show them. */
const COLUMNS: readonly StatementVerdict[] = ['passed', 'failed', 'blocked', 'expected-failure', 'untested', 'not-selected', 'not-applicable', 'excluded', 'informative'];

const badge = (status: string): string => `<span class="badge st-${cls(status)}">${esc(status)}</span>`;

function countCells(counts: Map<StatementVerdict, number>): string {
  return COLUMNS.map((c) => `<td>${counts.get(c) ?? ''}</td>`).join('');
}

function suiteCoverage(s: SuiteResult & { trace: TraceSummary }, byId: ReadonlyMap<string, RequirementVerdict>): string {
  const t = s.trace;
  const head = `<tr><th>Section</th><th>Statements</th>${COLUMNS.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const rows = t.sections.map((section) => {
    const statements = section.statements
      .map((st) => {
        const v = statementVerdict(st, byId);
        const ids = st.requirements.map((id) => `<code>${esc(id)}</code>`).join(' ');
        return `<li class="stmt">${badge(v)} “${esc(st.quote)}”${ids ? ` — ${ids}` : ''}${st.reason ? ` <span class="reason">${esc(st.reason)}</span>` : ''}</li>`;
      })
      .join('');
    return `<tr class="trace-section"><td><details><summary>${esc(section.section)}</summary><ul class="statements">${statements}</ul></details></td><td>${section.statements.length}</td>${countCells(verdictCounts(section.statements, byId))}</tr>`;
  });
  const total = `<tr class="trace-total"><th>all sections</th><th>${allStatements(t).length}</th>${countCells(verdictCounts(allStatements(t), byId))}</tr>`;
  const byInterface = t.interfaces
    .filter((c) => c.statements > 0)
    .map((c) => `${c.interface === 'shared' ? 'statements of no one interface' : `interface ${c.interface}`}: ${c.statements} statements, ${c.judged} judged by requirements, ${c.excluded} excluded, ${c.informative} informative`)
    .join('; ');
  return `<section class="trace" data-suite="${esc(s.name)}"><h3>${esc(s.name)} <span class="reason">${esc(t.document)}</span></h3><p class="reason">${esc(byInterface)}</p><table class="matrix trace-table"><thead>${head}</thead><tbody>${rows.join('')}${total}</tbody></table></section>`;
}

/** The coverage section, or a line saying no suite of the run has a trace. */
export function specCoverageSection(result: RunResult): string {
  const traced = result.suites.filter((s): s is SuiteResult & { trace: TraceSummary } => s.trace !== undefined);
  if (!traced.length) return '<p class="reason">No suite of this run has a statement trace (trace.yaml).</p>';
  return traced
    .map((s) => {
      const byId = new Map(s.requirements.map((v) => [v.id, v]));
      return suiteCoverage(s, byId);
    })
    .join('');
}
