import type { RunResult } from '../../src/engine/model.js';

/**
 * Readers of a run's verdicts shared by the suites' fault and reference tests. `prefix` keeps
 * the requirements whose ID starts with it (one side of a suite), every one when absent.
 */
const within = (prefix: string | undefined) => (v: { id: string }): boolean => prefix === undefined || v.id.startsWith(prefix);

/** Requirements with a failed verdict, sorted (of a run, or of its JSON report as read back). */
export function failedRequirements(r: { requirements: readonly { id: string; status: string }[] }, prefix?: string): string[] {
  return r.requirements.filter((v) => within(prefix)(v) && v.status === 'failed').map((v) => v.id).sort();
}

/** Requirements reported blocked, each with the requirements that blocked it (sorted). */
export function blockedBy(r: RunResult, prefix?: string): Record<string, string[]> {
  return Object.fromEntries(
    r.requirements
      .filter((v) => within(prefix)(v) && v.status === 'blocked')
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((v) => [v.id, [...(v.blockedBy ?? [])].sort()]),
  );
}

/** Requirements reported blocked as `ID <- BLOCKERS` lines, sorted. */
export function blockedLines(r: RunResult): string[] {
  return r.requirements.filter((v) => v.status === 'blocked').map((v) => `${v.id} <- ${[...(v.blockedBy ?? [])].sort().join(',')}`).sort();
}

/** Cases that errored, with the reason (a harness or target fault, never a conformance verdict). */
export function erroredCases(r: RunResult): string[] {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`));
}

/** Every case that did not pass, with why (and what blocked it): to read when an assertion fails. */
export function story(r: RunResult): string {
  return r.suites
    .flatMap((s) => s.cases)
    .filter((c) => c.outcome !== 'passed')
    .map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}${c.blockedBy ? ` [blocked by ${c.blockedBy.requirement}: ${c.blockedBy.message}]` : ''} ${c.failures.map((f) => `${f.requirement}: ${f.message}`).join(' | ')}`)
    .join('\n');
}

/**
 * The failed assertions of a case's failures, one entry each: a failure that groups several
 * assertions of its requirement gives each of them (with the requirement), any other itself.
 */
export function failedAssertions<F extends { requirement: string; message: string; expected?: unknown; actual?: unknown; assertions?: readonly { message: string; expected?: unknown; actual?: unknown }[] }>(
  failures: readonly F[],
): { requirement: string; message: string; expected?: unknown; actual?: unknown }[] {
  return failures.flatMap((f) => (f.assertions?.length ? f.assertions.map((a) => ({ requirement: f.requirement, ...a })) : [f]));
}
