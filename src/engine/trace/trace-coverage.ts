import type { InterfaceCoverage, Requirement, StatementStatus, Trace, TraceEntry, TracedSection, TraceSummary } from '../model.js';
import { normalizeText, sectionInterfaces, type SpecStatement } from './spec-statements.js';

/** Where a statement of no one interface is counted (or every statement, in a trace of a whole document). */
export const SHARED = 'shared';

/**
 * A statement's status: informative when its entry says so; judged when one of its
 * requirements is not excluded; otherwise excluded (its own reason, or its requirements').
 */
export function statementStatus(entry: TraceEntry, byId: ReadonlyMap<string, Requirement>): StatementStatus {
  if (entry.informative !== undefined) return 'informative';
  if (entry.excluded !== undefined) return 'excluded';
  return (entry.requirements ?? []).some((id) => { const r = byId.get(id); return r !== undefined && !r.excluded; }) ? 'judged' : 'excluded';
}

/** Why an excluded statement is excluded: its entry's reason, or each of its requirements' exclusions. */
export function exclusionReason(entry: TraceEntry, byId: ReadonlyMap<string, Requirement>): string | undefined {
  if (entry.excluded !== undefined) return entry.excluded;
  const reasons = (entry.requirements ?? []).map((id) => byId.get(id)?.excluded).filter((r): r is string => r !== undefined);
  return reasons.length ? [...new Set(reasons)].join('; ') : undefined;
}

/** The trace of a suite summed up for reports and `list --trace`. */
export function traceSummary(trace: Trace, requirements: readonly Requirement[]): TraceSummary {
  const byId = new Map(requirements.map((r) => [r.id, r]));
  const counts = new Map<string, InterfaceCoverage>();
  const count = (letter: string): InterfaceCoverage => {
    let c = counts.get(letter);
    if (!c) counts.set(letter, (c = { interface: letter, statements: 0, judged: 0, excluded: 0, informative: 0 }));
    return c;
  };
  const own = trace.interfaces ?? [];
  for (const letter of own) count(letter);
  const sections: TracedSection[] = [];
  for (const entry of trace.statements) {
    const status = statementStatus(entry, byId);
    const letters = sectionInterfaces(entry.section);
    for (const letter of letters.length && own.length ? letters.filter((l) => own.includes(l)) : [SHARED]) {
      const c = count(letter);
      c.statements++;
      c[status]++;
    }
    let section = sections[sections.length - 1];
    if (section?.section !== entry.section) sections.push((section = { section: entry.section, interfaces: letters, statements: [] }));
    const reason = status === 'informative' ? entry.informative : status === 'excluded' ? exclusionReason(entry, byId) : entry.note;
    section.statements.push({ quote: entry.quote, status, requirements: entry.requirements ?? [], ...(reason !== undefined ? { reason } : {}) });
  }
  return { document: trace.document, interfaces: [...counts.values()], sections };
}

/** A mismatch between a trace and its document's statements. */
export interface TraceProblem {
  message: string;
}

/** What matching a trace with its document found. */
export interface TraceMatch {
  problems: TraceProblem[];
  /** The statements the trace names (indexes into the document's statements). */
  claimed: Set<number>;
}

/**
 * Matches each entry of a trace with the one statement of its section whose text holds its
 * quote, and checks that every statement of the trace's interfaces has an entry. Statements
 * under no lettered heading are shared by the document's suites: `claimed` tells which this
 * trace names, so the caller can check that each is named by one of them.
 */
export function matchTrace(trace: Trace, statements: readonly SpecStatement[], label: string): TraceMatch {
  const problems: TraceProblem[] = [];
  const claimed = new Map<number, number>();
  const bySection = new Map<string, number[]>();
  statements.forEach((s, i) => {
    const list = bySection.get(s.section);
    if (list) list.push(i);
    else bySection.set(s.section, [i]);
  });
  // entries with one section and quote: as many as the statements that hold it take them in order (a sentence the document repeats)
  const sameQuote = new Map<string, number[]>();
  trace.statements.forEach((entry, e) => {
    const key = `${entry.section}\0${normalizeText(entry.quote)}`;
    const list = sameQuote.get(key);
    if (list) list.push(e);
    else sameQuote.set(key, [e]);
  });
  trace.statements.forEach((entry, e) => {
    const where = `${label} statement ${e + 1} (${entry.section}: "${entry.quote.slice(0, 60)}")`;
    const candidates = bySection.get(entry.section);
    if (!candidates) {
      problems.push({ message: `${where}: the document has no section "${entry.section}"` });
      return;
    }
    const quote = normalizeText(entry.quote);
    const hits = candidates.filter((i) => (statements[i] as SpecStatement).text.includes(quote));
    const twins = sameQuote.get(`${entry.section}\0${quote}`) ?? [e];
    if (hits.length === 0) problems.push({ message: `${where}: no statement of that section holds this quote (the document changed, or the quote is not verbatim)` });
    else if (hits.length !== twins.length && hits.length > 1) problems.push({ message: `${where}: ${hits.length} statements of that section hold this quote; quote more of the one meant` });
    else if (hits.length !== twins.length) problems.push({ message: `${where}: ${twins.length} entries of that section have this quote, and one statement holds it; one entry per statement` });
    else {
      const i = hits[twins.indexOf(e)] as number;
      const other = claimed.get(i);
      if (other !== undefined) problems.push({ message: `${where}: names the same statement as statement ${other + 1}; one entry per statement` });
      else claimed.set(i, e);
    }
  });
  statements.forEach((s, i) => {
    // a trace of the whole document (no interfaces) owns every statement
    if (claimed.has(i) || (trace.interfaces && !s.interfaces.some((l) => trace.interfaces?.includes(l)))) return;
    problems.push({ message: `${label}: line ${s.line} (${s.section}) has no entry: "${s.text.slice(0, 100)}"` });
  });
  return { problems, claimed: new Set(claimed.keys()) };
}
