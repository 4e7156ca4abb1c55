/**
 * TAP version 13 report: one test point per case, YAML diagnostics for failures.
 * Choices made for downstream converters (tap-junit 5 in particular, see its serialize.js):
 * - every diagnostic has `message`: without it tap-junit formats the whole diag itself and
 *   crashes on a nested `null` (Object.entries(null));
 * - `severity` is `fail` or `error`: tap-junit copies it into `<failure type>`, which keeps
 *   failed and errored cases apart after conversion;
 * - no comment lines before or between test points: tap-junit attaches the last comment it
 *   saw to every later testcase as `<system-out>`; summary comments go after the last point.
 */
import { createRequire } from 'node:module';
import { blockedWords, rootCauses } from './root-causes.js';
import type { CaseResult, Failure, RunResult, SuiteResult } from '../engine/model.js';
import { normalize, type Plain } from './json-text.js';
import { STALE_MESSAGE } from './junit-cases.js';
import { createFileReporter, type Reporter } from './reporter.js';
import { cleanText, oneLine, skipText } from './text.js';

// yaml is required when a TAP report writes its first diagnostics block, not with this module:
// most runs write none (a reporter imports only the engine's result types: src/yaml-package.ts
// is outside what it may import)
const require = createRequire(import.meta.url);
let yamlLib: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlLib ??= require('yaml') as typeof import('yaml'));

/** TAP descriptions treat `#` as the start of a directive and `\` as its escape (TAP 13). */
function escapeDescription(text: string): string {
  return oneLine(cleanText(text), 500).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

// A raw CR would end the TAP line early, and illegal XML characters would break converters.
const tapString = (s: string): string => cleanText(s).replace(/\r\n?/g, '\n');

function yamlBlock(diag: Record<string, unknown>): string[] {
  // YAML readers round integers past 2^53 (js-yaml) or refuse very long ones (PyYAML): strings keep the digits
  const text = yaml().stringify(normalize(diag, tapString, { portableIntegers: true }), { lineWidth: 0 }).trimEnd();
  return ['  ---', ...text.split('\n').map((l) => `  ${l}`), '  ...'];
}

function failedDiag(c: CaseResult): Record<string, unknown> {
  const first = c.failures[0];
  const property = first?.property ?? c.property;
  const diag: Record<string, unknown> = {
    message: first ? `${first.requirement}: ${first.message}` : (c.reason ?? 'failed'),
    severity: 'fail',
    requirement: first?.requirement ?? c.requirements.join(', '),
    expected: first?.expected,
    actual: first?.actual,
    // a requirement the case broke by several assertions: one test point, each assertion listed
    // (here when it is the case's only failure; under `failures` when there are more)
    assertions: first && c.failures.length === 1 ? assertionsDiag(first) : undefined,
    exchange: first?.exchange?.summary,
    seed: property?.seed,
    path: property?.path,
    counterexample: property?.counterexample,
    replay: property?.replay,
  };
  if (c.failures.length > 1) {
    diag.failures = c.failures.map((f) => ({ requirement: f.requirement, message: f.message, expected: f.expected, actual: f.actual, assertions: assertionsDiag(f) }));
  }
  return diag;
}

/** The failed assertions of a failure made of several, as diagnostics. */
function assertionsDiag(f: Failure): Record<string, unknown>[] | undefined {
  return f.assertions?.map((a) => ({ message: a.message, expected: a.expected, actual: a.actual, exchange: a.exchange?.summary }));
}

function erroredDiag(c: CaseResult): Record<string, unknown> {
  return {
    message: c.reason ?? 'errored',
    severity: 'error',
    code: c.errorCode,
    requirement: c.requirements.join(', '),
    exchanges: c.exchanges.length > 0 ? c.exchanges.map((x) => x.summary) : undefined,
  };
}

function where(c: CaseResult): Plain | undefined {
  return c.location ? { file: c.location.file, line: c.location.line, column: c.location.column } : undefined;
}

function casePoint(n: number, c: CaseResult): string[] {
  const desc = `${n} - ${escapeDescription(`${c.suite}/${c.id}${c.requirements.length > 0 ? ` [${c.requirements.join(', ')}]` : ''}`)}`;
  const at = where(c);
  switch (c.outcome) {
    case 'passed':
      if (c.baseline !== 'stale') return [`ok ${desc}`];
      return [`not ok ${desc}`, ...yamlBlock({ message: STALE_MESSAGE, severity: 'fail', requirement: c.requirements.join(', '), at })];
    case 'skipped':
      return [`ok ${desc} # SKIP ${escapeDescription(skipText(c))}`];
    case 'failed':
      // TAP's TODO is exactly "known failure, does not fail the run": the baseline's meaning.
      return [
        `not ok ${desc}${c.baseline === 'expected-failure' ? ' # TODO expected failure (baseline)' : ''}`,
        ...yamlBlock({ ...failedDiag(c), at }),
      ];
    case 'errored':
      return [`not ok ${desc}`, ...yamlBlock({ ...erroredDiag(c), at })];
  }
}

function suiteErrorPoint(n: number, s: SuiteResult, error: { code: string; message: string }): string[] {
  return [`not ok ${n} - ${escapeDescription(`${s.name}/(suite setup)`)}`, ...yamlBlock({ message: error.message, severity: 'error', code: error.code })];
}

/**
 * Renders a run as TAP 13. Test points are `ok N - <suite>/<case-id> [REQ, ...]`; skipped
 * cases carry `# SKIP <reason>`; failed and errored cases are `not ok` with a YAML block
 * (message, severity, requirement, expected, actual, and seed/replay for property cases).
 * A suite-level fault is one extra `not ok` point. Summary comments follow the last point.
 */
export function renderTap(result: RunResult): string {
  const points: string[] = [];
  let n = 0;
  for (const s of result.suites) {
    if (s.error) points.push(...suiteErrorPoint(++n, s, s.error));
    for (const c of s.cases) points.push(...casePoint(++n, c));
  }
  const { cases, requirements } = result.summary;
  const tail = [
    `# cases: ${cases.total} (passed ${cases.passed}, failed ${cases.failed}, errored ${cases.errored}, skipped ${cases.skipped})`,
    `# requirements: ${requirements.total} (passed ${requirements.passed}, failed ${requirements.failed}, untested ${requirements.untested}, blocked ${requirements.blocked ?? 0}, excluded ${requirements.excluded}, expected-failure ${requirements['expected-failure']}, not-applicable ${requirements['not-applicable']}${requirements['not-selected'] ? `, not-selected ${requirements['not-selected']}` : ''}, stale ${requirements.stale})`,
    // the cases above are those of the selection: the requirements outside it were not asked of the target
    ...result.suites.flatMap((s) => (s.selection ? [`# selection: ${s.name} ${escapeDescription(s.selection.label)}; the other requirements are not selected`] : [])),
    `# seed: ${result.seed}`,
    // the roots to fix first, each with its replay command and what it blocks
    ...rootCauses(result).roots.map((r) => `# root failure: ${r.suite} ${r.verdict.id} (${r.verdict.level})${r.blocks.length ? `; ${blockedWords(r.blocks)}` : ''}${r.replay ? `; replay: ${cleanText(r.replay)}` : ''}`),
    `# ${oneLine(cleanText(result.summary.verdict))}`,
  ];
  return `${['TAP version 13', `1..${n}`, ...points, ...tail].join('\n')}\n`;
}

/** A reporter that writes {@link renderTap} of the finished run to `path`. */
export function createTapReporter(path: string): Reporter {
  return createFileReporter(path, renderTap);
}
