import type { SourceLocation } from '../model.js';

/**
 * A suite's statement trace (`suites/<suite>/trace.yaml`, schemas/trace.schema.json): every
 * statement of the specification parts it judges, each with the requirements that judge it, or
 * why none can.
 */
export interface Trace {
  /** The specification document's file name. */
  document: string;
  /** The interfaces (heading letters) of the document the suite judges; absent: the whole document. */
  interfaces?: string[];
  statements: TraceEntry[];
}

/** One statement of the document, as the trace names it. */
export interface TraceEntry {
  /** The headings above it, joined by " > " (spec-statements.ts SECTION_SEPARATOR). */
  section: string;
  /** Words of the statement, enough to find it alone in its section. */
  quote: string;
  /** The requirements that judge it; beside `informative`, the excluded ones that record what it leaves open. */
  requirements?: string[];
  excluded?: string;
  informative?: string;
  note?: string;
  location?: SourceLocation;
}

/**
 * What a statement comes to: judged (a requirement that is not excluded judges it), excluded
 * (a rule nothing can judge from outside: its entry's reason, or its requirements' exclusions),
 * or informative (it states no behaviour).
 */
export type StatementStatus = 'judged' | 'excluded' | 'informative';
