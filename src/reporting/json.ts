/**
 * Machine-readable JSON report with the same per-requirement verdicts as the JUnit report
 * (DESIGN "Verdicts and reports"). Shapes are stable: optional model fields are written as
 * `null`/`false` rather than left out, so `jq` filters need no existence checks.
 */
import { readFileSync } from 'node:fs';
import type { CaseResult, RequirementVerdict, RunResult, SuiteResult } from '../engine/model.js';
import { fromRoot } from '../paths.js';
import { jsonParts } from './json-text.js';
import { createFileReporter, type Reporter } from './reporter.js';

/** Bumped when a field changes meaning or disappears (adding fields does not bump it). */
export const JSON_REPORT_FORMAT = 1;

let cachedVersion: string | undefined;

/** specgate's own version, from its package.json ("unknown" if that cannot be read). */
export function specgateVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version?: unknown };
      cachedVersion = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      // A report without a version is still a useful report; never fail the run for it.
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
}

function requirementJson(v: RequirementVerdict): Record<string, unknown> {
  return {
    id: v.id,
    suite: v.suite,
    level: v.level,
    status: v.status,
    side: v.side ?? null,
    text: v.text,
    source: v.source,
    cases: v.cases,
    failures: v.failures,
    reason: v.reason ?? null,
    errored: v.errored,
    skipped: v.skipped,
    stale: v.stale ?? false,
    baseline: v.baseline ?? null,
    evidence: v.evidence ?? null,
    blockedBy: v.blockedBy ?? null,
  };
}

function caseJson(c: CaseResult): Record<string, unknown> {
  return {
    id: c.id,
    description: c.description ?? null,
    requirements: c.requirements,
    outcome: c.outcome,
    reason: c.reason ?? null,
    notApplicable: c.notApplicable ?? false,
    errorCode: c.errorCode ?? null,
    durationMs: c.durationMs,
    failures: c.failures,
    exchanges: c.exchanges,
    property: c.property ?? null,
    baseline: c.baseline ?? null,
    location: c.location ?? null,
    replay: c.replay ?? null,
    assumes: c.assumes ?? null,
    blockedBy: c.blockedBy ?? null,
    blockedFailures: c.blockedFailures ?? null,
    blocked: c.blocked ?? null,
    evidence: c.evidence ?? null,
    noEvidence: c.noEvidence ?? null,
    seeded: c.seeded ?? false,
  };
}

function suiteJson(s: SuiteResult, specgate: string): Record<string, unknown> {
  return {
    name: s.name,
    // a suite kept outside specgate carries its own version; a built-in suite ships with specgate
    version: s.version ?? specgate,
    target: s.target,
    durationMs: s.durationMs,
    error: s.error ?? null,
    sides: s.sides ?? null,
    // what the run selected (--part, --requirement): the requirements outside it are not selected
    selection: s.selection ?? null,
    properties: s.properties,
    // what of the specification the suite's requirements judge, statement by statement (trace.yaml)
    trace: s.trace ?? null,
    cases: s.cases.map(caseJson),
  };
}

/**
 * Renders a run as JSON (2-space indent, trailing newline). An integer a double cannot hold
 * exactly (an int64 id in an actual body, say) is written as a string of every digit, so any
 * JSON reader takes the report without rounding or refusing it (json-text.ts, portableInteger).
 * @param version defaults to specgate's package.json version.
 */
export function renderJson(result: RunResult, version = specgateVersion()): string {
  return [...jsonReportParts(result, version)].join('');
}

/** {@link renderJson} in parts (json-text.ts, jsonParts), as the reporter writes it: a huge run is never one string. */
export function* jsonReportParts(result: RunResult, version = specgateVersion()): Generator<string> {
  // The run-level list is the authoritative one; fall back to the suites' lists if empty.
  const requirements = result.requirements.length > 0 ? result.requirements : result.suites.flatMap((s) => s.requirements);
  const report = {
    specgate: { version, format: JSON_REPORT_FORMAT },
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    seed: result.seed,
    strict: result.strict,
    stricter: result.stricter ?? false,
    summary: result.summary,
    requirements: requirements.map(requirementJson),
    suites: result.suites.map((s) => suiteJson(s, version)),
    // Only a shard's report has it: what `specgate merge` needs to check the parts cover the run.
    ...(result.shard ? { shard: result.shard } : {}),
    // Only an interrupted run's report has it (`jq .interrupted` is null otherwise): the signal
    // that stopped it; its unfinished cases are skipped as interrupted.
    ...(result.interrupted ? { interrupted: result.interrupted } : {}),
  };
  yield* jsonParts(report, 2, { portableIntegers: true });
  yield '\n';
}

/** A reporter that writes {@link renderJson} of the finished run to `path`. */
export function createJsonReporter(path: string): Reporter {
  return createFileReporter(path, (r) => jsonReportParts(r));
}
