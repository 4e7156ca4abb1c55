/**
 * The HTML report (`--report html=path`): one self-contained page a person reads before a
 * release (DESIGN "Verdicts and reports"). Inline style and script, a content security policy
 * that forbids every fetch, and every value escaped as page text.
 */
import type { RunResult } from '../engine/model.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { esc } from './html-escape.js';
import { CASE_OUTCOMES, caseTable, requirementCounts, failureList, filterBar, requirementMatrix, rootCauseSection, summaryChart } from './html-sections.js';
import { specCoverageSection } from './html-trace.js';
import { specgateVersion } from './json.js';
import { createFileReporter, type Reporter } from './reporter.js';

/** What the page says about the run besides its results. */
export interface HtmlMeta {
  /** specgate's version (default: its package.json). */
  version?: string;
  /** The Node.js version that ran it (default: this process's). */
  node?: string;
}

function metaTable(result: RunResult, meta: Required<HtmlMeta>): string {
  const rows: [string, string][] = [
    ['specgate', meta.version],
    ['Node.js', meta.node],
    ['started', result.startedAt],
    ['duration', `${(result.durationMs / 1000).toFixed(1)} s`],
    ['seed', String(result.seed)],
    ['gating level', result.stricter ? 'MUST, SHOULD and STRICTER (--stricter)' : result.strict ? 'MUST and SHOULD (--strict)' : 'MUST'],
    ...result.suites.map((s): [string, string] => [`target of ${s.name}`, `${s.target}${s.properties['clock'] ? ` (clock: ${s.properties['clock']})` : ''}${s.error ? ` — not started: ${s.error.message}` : ''}`]),
    ...result.suites.flatMap((s): [string, string][] => (s.selection ? [[`selection of ${s.name}`, `${s.selection.label}: the cases covering it ran; the other requirements are not selected`]] : [])),
  ];
  if (result.shard) rows.push(['shard', `${result.shard.index} of ${result.shard.total}`]);
  if (result.interrupted) rows.push(['interrupted', `by ${result.interrupted.signal}: the cases that did not run are skipped`]);
  return `<table class="meta">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

/** Renders a finished run as one HTML page. */
export function renderHtml(result: RunResult, meta: HtmlMeta = {}): string {
  const m = { version: meta.version ?? specgateVersion(), node: meta.node ?? process.version };
  const s = result.summary;
  const reqCounts = requirementCounts(result);
  const caseCounts = CASE_OUTCOMES.map((k): [string, number] => [k, s.cases[k]]);
  const baselineNotes = [
    ...s.staleBaseline.map((e) => `stale baseline entry ${e.id} (${e.reason}): it passes now; remove it`),
    ...s.expiredBaseline.map((e) => `expired baseline entry ${e.id} (${e.reason}, expired ${e.expires ?? ''})`),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>specgate report: ${esc(result.suites.map((x) => x.name).join(', '))}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<div id="page">
<h1>specgate conformance report</h1>
<div class="verdict exit-${s.exitCode}" id="verdict">exit code ${s.exitCode}: ${esc(s.verdict)}</div>
${baselineNotes.length ? `<ul class="baseline-notes">${baselineNotes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
${rootCauseSection(result)}
<h2 id="failures">Failures (${result.suites.reduce((n, x) => n + x.cases.reduce((k, c) => k + c.failures.length, 0), 0)})</h2>
${failureList(result)}
<h2>Run</h2>
${metaTable(result, m)}
${summaryChart(result)}
<h2>Requirements</h2>
${filterBar('req', reqCounts)}
${requirementMatrix(result)}
<h2 id="spec-coverage">Coverage by specification section</h2>
${specCoverageSection(result)}
<h2>Cases</h2>
${filterBar('case', caseCounts)}
${caseTable(result)}
</div>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

/** A reporter that writes {@link renderHtml} of the finished run to `path`. */
export function createHtmlReporter(path: string): Reporter {
  return createFileReporter(path, (r) => renderHtml(r));
}
