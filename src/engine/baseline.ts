import { SpecgateError, SpecgateErrorList } from '../errors.js';
import { schemaErrors } from './loader/schema-check.js';
import { readYaml } from './loader/yaml-source.js';
import type { BaselineEntry, CaseResult, LoadedSuite } from './model.js';

/**
 * Expected failures: a listed requirement, case, or requirement of one case that fails does not
 * fail the gate; one that now passes is stale and fails the run (remove it); one past its
 * `expires` date fails the run.
 */
export class Baseline {
  private readonly byId = new Map<string, BaselineEntry>();

  constructor(readonly entries: BaselineEntry[] = [], private readonly today = new Date().toISOString().slice(0, 10)) {
    for (const e of entries) this.byId.set(e.id, e);
  }

  /** No entry at all: nothing to look up for any requirement or case. */
  get empty(): boolean {
    return this.byId.size === 0;
  }

  /** Entry for a requirement ID. */
  requirement(id: string): BaselineEntry | undefined {
    return this.byId.get(id);
  }

  /** Entry for a case, written `<suite>/<case-id>` (or the bare case ID). */
  case(suite: string, id: string): BaselineEntry | undefined {
    return this.byId.get(`${suite}/${id}`) ?? this.byId.get(id);
  }

  /**
   * Entry for one requirement of one case, written `<suite>/<case-id>:<REQ>`: only that
   * requirement's failure in that case is expected, so the same requirement failing in another
   * case still fails the gate.
   */
  caseRequirement(suite: string, caseId: string, requirement: string): BaselineEntry | undefined {
    return this.byId.get(`${suite}/${caseId}:${requirement}`);
  }

  /**
   * The baseline status of one case's result. A case listed whole is an expected failure when it
   * failed and stale when it passed. A case listed requirement by requirement is an expected
   * failure when every failure it had is on a listed requirement, and stale when it passed.
   */
  caseStatus(suite: string, result: CaseResult): CaseResult['baseline'] {
    if (this.empty) return undefined; // no baseline: nothing to look up for any case
    const whole = this.case(suite, result.id) !== undefined;
    const listed = (req: string): boolean => this.caseRequirement(suite, result.id, req) !== undefined;
    if (!whole && !result.requirements.some(listed)) return undefined;
    if (result.outcome === 'passed') return 'stale';
    if (result.outcome !== 'failed') return undefined;
    if (whole) return 'expected-failure';
    // An unlisted requirement failing in this case is a finding, not the expected deviation.
    return result.failures.length > 0 && result.failures.every((f) => listed(f.requirement)) ? 'expected-failure' : undefined;
  }

  expired(): BaselineEntry[] {
    return this.entries.filter((e) => e.expires !== undefined && e.expires < this.today);
  }
}

/**
 * What a baseline entry ID names, judged against a set of loaded suites:
 * - `requirement`: a requirement of `suite`;
 * - `case`: a case of `suite`, written `<suite>/<case-id>` or as the bare case ID. `missing` is
 *   true when the entry is written `<suite>/<case-id>`, that suite is among those given, and it
 *   has no such case; a suite not given cannot be checked, so its cases are never missing;
 * - `case-requirement`: one requirement of one case, written `<suite>/<case-id>:<REQ>`; `missing`
 *   is true when that suite is among those given and has no such case, or the case does not
 *   list the requirement;
 * - `unknown`: a bare ID that is neither a requirement nor a case of any suite given.
 */
export type BaselineTarget =
  | { kind: 'requirement'; suite: string }
  | { kind: 'case'; suite: string; caseId: string; missing: boolean }
  | { kind: 'case-requirement'; suite: string; caseId: string; requirement: string; missing: boolean }
  | { kind: 'unknown' };

/** Classifies one baseline entry ID against `suites` (see BaselineTarget). */
export function baselineTarget(id: string, suites: readonly LoadedSuite[]): BaselineTarget {
  const slash = id.indexOf('/');
  if (slash >= 0) {
    const suite = id.slice(0, slash);
    const named = suites.find((s) => s.name === suite);
    // Case IDs are kebab-case and requirement IDs upper-case words, so ':' can only separate them.
    const colon = id.indexOf(':', slash);
    if (colon >= 0) {
      const caseId = id.slice(slash + 1, colon);
      const requirement = id.slice(colon + 1);
      const def = named?.cases.find((c) => c.id === caseId);
      return { kind: 'case-requirement', suite, caseId, requirement, missing: named !== undefined && !def?.requirements.includes(requirement) };
    }
    const caseId = id.slice(slash + 1);
    return { kind: 'case', suite, caseId, missing: named !== undefined && !named.cases.some((c) => c.id === caseId) };
  }
  const owner = suites.find((s) => s.requirements.some((r) => r.id === id));
  if (owner) return { kind: 'requirement', suite: owner.name };
  const withCase = suites.find((s) => s.cases.some((c) => c.id === id));
  if (withCase) return { kind: 'case', suite: withCase.name, caseId: id, missing: false };
  return { kind: 'unknown' };
}

/**
 * True for a YYYY-MM-DD day that exists (`2027-02-30` does not). Expiry compares the text, so
 * a day that does not exist would expire on a date nobody wrote.
 */
function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years below 100 as 19xx
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Reads and checks a baseline file.
 * @throws SpecgateError `SG_CONFIG` with file:line:column for a schema violation, a duplicate
 * entry or an `expires` that is not a real day.
 */
export function loadBaseline(file: string): Baseline {
  const src = readYaml(file, 'SG_CONFIG');
  const errors = schemaErrors(src, 'baseline', 'SG_CONFIG');
  if (errors.length) throw new SpecgateErrorList(errors);
  const data = src.data as { 'expected-failures': BaselineEntry[] };
  const seen = new Set<string>();
  for (const [i, e] of data['expected-failures'].entries()) {
    if (seen.has(e.id)) {
      const at = src.locate(['expected-failures', i]);
      throw new SpecgateError('SG_CONFIG', `${file}:${at.line}:${at.column}: "${e.id}" is listed twice; keep one entry`);
    }
    seen.add(e.id);
    if (e.expires !== undefined && !isCalendarDate(e.expires)) {
      const at = src.locate(['expected-failures', i, 'expires']);
      throw new SpecgateError('SG_CONFIG', `${file}:${at.line}:${at.column}: expires "${e.expires}" is not a date of the calendar; write a real day as YYYY-MM-DD (e.g. 2027-03-01)`);
    }
  }
  return new Baseline(data['expected-failures']);
}
