/**
 * The parts of the HTML report: the summary chart, the requirement matrix per suite and level,
 * the failures with everything needed to act on them, and the cases with their outcomes and
 * reasons. Each returns escaped HTML (html-escape.ts).
 */
import { blockedWords, rootCauses } from './root-causes.js';
import type { Assertion, CaseResult, Exchange, Failure, Level, PropertyInfo, RequirementVerdict, RunResult } from '../engine/model.js';
import { curlCommand, curlNote, exchangeLines, exchangesToShow } from './exchange-text.js';
import { assertionsOf } from './failure-text.js';
import { cls, esc, escValue } from './html-escape.js';
import { skipText } from './text.js';

const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY', 'STRICTER'];
export const REQ_STATUSES = ['failed', 'blocked', 'expected-failure', 'untested', 'passed', 'excluded', 'not-applicable', 'not-selected'] as const;
export const CASE_OUTCOMES = ['failed', 'errored', 'skipped', 'passed'] as const;

const COLORS: Record<string, string> = { passed: '#1a7f37', failed: '#cf222e', untested: '#9a6700', blocked: '#953800', excluded: '#6e7781', 'expected-failure': '#8250df', 'not-applicable': '#8c959f', 'not-selected': '#afb8c1', errored: '#bc4c00', skipped: '#57606a' };

const badge = (status: string, label = status): string => `<span class="badge st-${cls(status)}">${esc(label)}</span>`;

/**
 * The requirements per status, as the chart and the filter show them: `not-selected` only for a
 * run that selected requirements (`--part`, `--requirement`), the others always.
 */
export function requirementCounts(result: RunResult): [string, number][] {
  const counts = result.summary.requirements;
  return REQ_STATUSES.flatMap((k): [string, number][] => {
    const n = k === 'not-selected' ? (counts[k] ?? 0) : counts[k];
    return k === 'not-selected' && n === 0 ? [] : [[k, n]];
  });
}

/** Two stacked bars (requirements by status, cases by outcome) as inline SVG. */
export function summaryChart(result: RunResult): string {
  const width = 640;
  const bar = (y: number, title: string, counts: [string, number][]): string => {
    const total = counts.reduce((n, [, c]) => n + c, 0) || 1;
    let x = 0;
    const rects = counts
      .filter(([, c]) => c > 0)
      .map(([k, c]) => {
        const w = (c / total) * width;
        const r = `<rect x="${x.toFixed(1)}" y="${y + 16}" width="${w.toFixed(1)}" height="18" fill="${COLORS[k] ?? '#999'}"><title>${esc(`${k}: ${c}`)}</title></rect>`;
        x += w;
        return r;
      });
    const legend = counts.map(([k, c]) => `${k} ${c}`).join(' · ');
    return `<text x="0" y="${y + 11}">${esc(`${title}: ${legend}`)}</text>${rects.join('')}`;
  };
  const s = result.summary;
  return `<svg class="chart" role="img" aria-label="summary chart" width="${width}" height="86" viewBox="0 0 ${width} 86" xmlns="http://www.w3.org/2000/svg">${bar(0, 'Requirements', requirementCounts(result))}${bar(44, 'Cases', CASE_OUTCOMES.map((k) => [k, s.cases[k]]))}</svg>`;
}

/** The filter bar of one table: a checkbox per status with its count, and a "showing n of m" line. */
export function filterBar(kind: 'req' | 'case', counts: [string, number][]): string {
  const boxes = counts.map(([k, n]) => `<label><input type="checkbox" data-filter="${kind}" value="${cls(k)}" data-count="${n}" checked> ${badge(k)} ${n}</label>`);
  return `<div class="filters" data-kind="${kind}"><strong>Show</strong>${boxes.join('')}<span class="shown" id="shown-${kind}"></span></div>`;
}

function requirementRow(v: RequirementVerdict): string {
  const label = v.stale ? `${v.status} (stale baseline)` : v.status;
  const why = v.reason ?? (v.failures.length ? v.failures.map((f) => f.message).slice(0, 3).join('; ') : '');
  const cases = v.cases.slice(0, PAGE_LIMITS.casesPerRequirement).map((c) => `<code>${esc(c)}</code>`);
  if (v.cases.length > PAGE_LIMITS.casesPerRequirement) cases.push(`<span class="reason">and ${v.cases.length - PAGE_LIMITS.casesPerRequirement} more</span>`);
  return `<tr class="req st-row-${cls(v.status)}" data-id="${esc(v.id)}"><td><code>${esc(v.id)}</code></td><td>${badge(v.stale ? 'failed' : v.status, label)}</td><td><code>${esc(v.source)}</code></td><td>${esc(v.text)}</td><td>${cases.join(' ')}</td><td class="reason">${esc(why)}</td></tr>`;
}

/** The requirement matrix: one table per suite and level. */
export function requirementMatrix(result: RunResult): string {
  const requirements = result.requirements.length ? result.requirements : result.suites.flatMap((s) => s.requirements);
  const suites = [...new Set(requirements.map((r) => r.suite))];
  return suites
    .map((suite) => {
      const target = result.suites.find((s) => s.name === suite)?.target ?? '';
      const tables = LEVELS.map((level) => {
        const rows = requirements.filter((r) => r.suite === suite && r.level === level);
        if (!rows.length) return '';
        return `<h4>${esc(level)} (${rows.length})</h4><table class="matrix"><thead><tr><th>Requirement</th><th>Status</th><th>Clause</th><th>Text</th><th>Cases</th><th>Why</th></tr></thead><tbody>${rows.map(requirementRow).join('')}</tbody></table>`;
      });
      return `<section class="suite" data-suite="${esc(suite)}"><h3>${esc(suite)} <span class="reason">against ${esc(target)}</span></h3>${tables.join('')}</section>`;
    })
    .join('');
}

/** An exchange: request and answer in short (open), in full (folded), and a curl command sending the request again. */
function exchangeBlock(x: Exchange): string {
  const parts = [`<summary>exchange: <code>${esc(x.summary)}</code>${x.durationMs !== undefined ? ` (${Math.round(x.durationMs)} ms)` : ''}</summary>`];
  if (x.request !== undefined) parts.push(`<div>request</div><pre>${escValue(x.request)}</pre>`);
  if (x.response !== undefined) parts.push(`<div>response</div><pre>${escValue(x.response)}</pre>`);
  const short = exchangeLines(x);
  const curl = curlCommand(x);
  const note = curl === undefined ? undefined : curlNote(curl);
  return [
    short ? `<pre class="exchange-short">${esc(short.join('\n'))}</pre>` : '',
    `<details class="exchange">${parts.join('')}</details>`,
    curl !== undefined ? `<div>try</div><pre class="curl"><code>${esc(curl)}</code></pre>${note ? `<div class="reason">${esc(note)}</div>` : ''}` : '',
  ].join('');
}

/** The anchor of a case's first failure of a requirement, which the root failures link to. */
export function failureAnchor(suite: string, caseId: string, requirement: string): string {
  return `failure-${[suite, caseId, requirement].map((p) => p.replace(/[^A-Za-z0-9_-]/g, '_')).join('--')}`;
}

function propertyBlock(p: PropertyInfo): string {
  const lines = [`<div>seed ${p.seed}, runs ${p.runs}${p.shrinks !== undefined ? `, shrinks ${p.shrinks}` : ''}${p.path !== undefined ? `, path <code>${esc(p.path)}</code>` : ''}</div>`];
  if (p.counterexample !== undefined) lines.push(`<div>counterexample</div><pre class="counterexample">${escValue(p.counterexample)}</pre>`);
  if (p.replay !== undefined) lines.push(`<div>replay</div><pre class="replay"><code>${esc(p.replay)}</code></pre>`);
  return lines.join('');
}

function failureBlock(c: CaseResult, f: Failure, verdict: RequirementVerdict | undefined, shown: readonly (Exchange | undefined)[], anchors: Set<string>): string {
  const expected = c.baseline === 'expected-failure' || verdict?.status === 'expected-failure';
  const anchor = failureAnchor(c.suite, c.id, f.requirement);
  const id = anchors.has(anchor) ? '' : ` id="${anchor}"`;
  anchors.add(anchor);
  const parts = [
    `<h4><code>${esc(f.requirement)}</code>${verdict ? ` (${esc(verdict.level)})` : ''} in case <code>${esc(c.suite)}/${esc(c.id)}</code>${expected ? ` ${badge('expected-failure')}` : ''}</h4>`,
    verdict ? `<div class="reason">${esc(verdict.text)}</div>` : '',
  ];
  const assertions = assertionsOf(f);
  // the exchange judged, or the case's last one; shown once for the assertions of a case judged on it
  const one = (a: Assertion, x: Exchange | undefined): string[] => [
    `<p class="message">${esc(a.message)}</p>`,
    a.expected !== undefined ? `<div>expected</div><pre class="expected">${escValue(a.expected)}</pre>` : '',
    a.actual !== undefined ? `<div>actual</div><pre class="actual">${escValue(a.actual)}</pre>` : '',
    x !== undefined ? exchangeBlock(x) : '',
  ];
  const property = f.property ?? c.property;
  const replay = property ? propertyBlock(property) : c.replay !== undefined ? `<div>replay</div><pre class="replay"><code>${esc(c.replay)}</code></pre>` : '';
  if (assertions.length === 1) {
    const [message = '', expectedPart = '', actualPart = '', exchangePart = ''] = one(assertions[0] as Assertion, shown[0]);
    parts.push(message, expectedPart, actualPart, replay, exchangePart);
  } else {
    parts.push(`<p class="message">${assertions.length} failed assertions of this requirement:</p>`, replay);
    parts.push(`<ol class="assertions">${assertions.map((a, i) => `<li>${one(a, shown[i]).join('')}</li>`).join('')}</ol>`);
  }
  return `<div class="failure${expected ? ' expected' : ''}"${id} data-requirement="${esc(f.requirement)}" data-case="${esc(c.id)}">${parts.join('')}</div>`;
}

/**
 * What one page shows of a huge run: a browser must still open it. What is left out is said
 * where it would have been; the JSON and JUnit reports keep every case.
 */
export const PAGE_LIMITS = {
  /** Failures shown in full (each with its values and exchange). */
  failures: 1000,
  /** Rows of cases that did not pass (failed, errored, skipped). */
  otherCases: 5000,
  /** Rows of passed cases. */
  passedCases: 2000,
  /** Case IDs listed in a requirement's row. */
  casesPerRequirement: 50,
};

/** The note that stands for what a page leaves out. */
function leftOut(n: number, what: string): string {
  return `<p class="reason left-out">${n} more ${what} not shown on this page: the JSON report (--report json=...) lists every one.</p>`;
}

/** Every failure of every case (up to PAGE_LIMITS.failures), with expected, actual, the (redacted) exchange and the replay command. */
export function failureList(result: RunResult): string {
  const verdicts = new Map(result.suites.flatMap((s) => s.requirements).map((v) => [`${v.suite}\u0000${v.id}`, v]));
  const blocks: string[] = [];
  let total = 0;
  const anchors = new Set<string>();
  for (const s of result.suites)
    for (const c of s.cases) {
      const shown = c.failures.length ? exchangesToShow(c) : [];
      c.failures.forEach((f, i) => {
        if (total++ < PAGE_LIMITS.failures) blocks.push(failureBlock(c, f, verdicts.get(`${s.name}\u0000${f.requirement}`), shown[i] ?? [], anchors));
      });
    }
  if (!blocks.length) return '<p>No failures.</p>';
  return blocks.join('') + (total > blocks.length ? leftOut(total - blocks.length, 'failures') : '');
}

function caseRow(c: CaseResult): string {
  const baseline = c.baseline ? ` ${badge(c.baseline === 'stale' ? 'failed' : 'expected-failure', c.baseline === 'stale' ? 'stale baseline' : 'expected (baseline)')}` : '';
  const why = c.outcome === 'skipped' ? skipText(c) : c.reason ?? (c.failures.length ? `${c.failures.length} failure(s): ${[...new Set(c.failures.map((f) => f.requirement))].join(', ')}` : '');
  return `<tr class="case st-row-${cls(c.outcome)}"><td><code>${esc(c.suite)}/${esc(c.id)}</code>${c.description ? `<div class="reason">${esc(c.description)}</div>` : ''}</td><td>${badge(c.outcome)}${baseline}</td><td>${c.requirements.map((r) => `<code>${esc(r)}</code>`).join(' ')}</td><td>${Math.round(c.durationMs)} ms</td><td class="reason">${esc(why)}${c.exchanges.length && !c.failures.length && c.outcome === 'errored' ? c.exchanges.slice(-1).map(exchangeBlock).join('') : ''}</td></tr>`;
}

/**
 * Every case with its outcome, requirements, duration and, for skipped and errored ones, why;
 * of a huge run, the first PAGE_LIMITS.passedCases passed cases and PAGE_LIMITS.otherCases others.
 */
export function caseTable(result: RunResult): string {
  const rows: string[] = [];
  let passed = 0;
  let others = 0;
  for (const s of result.suites)
    for (const c of s.cases) {
      const shown = c.outcome === 'passed' ? passed++ < PAGE_LIMITS.passedCases : others++ < PAGE_LIMITS.otherCases;
      if (shown) rows.push(caseRow(c));
    }
  const hidden = [
    ...(passed > PAGE_LIMITS.passedCases ? [leftOut(passed - PAGE_LIMITS.passedCases, 'passed cases')] : []),
    ...(others > PAGE_LIMITS.otherCases ? [leftOut(others - PAGE_LIMITS.otherCases, 'failed, errored or skipped cases')] : []),
  ];
  return `<table class="cases"><thead><tr><th>Case</th><th>Outcome</th><th>Requirements</th><th>Duration</th><th>Why</th></tr></thead><tbody>${rows.join('')}</tbody></table>${hidden.join('')}`;
}

/**
 * The root failures, as the page leads with them: each failed requirement with the command that
 * replays it, the cases that failed it, and the requirements it blocks; then rules that blocked
 * others without failing in this run.
 */
export function rootCauseSection(result: RunResult): string {
  const { roots, blockers } = rootCauses(result);
  if (!roots.length && !blockers.length) return '';
  const items = roots.map((r) => {
    const blocked = r.blocks.length ? `<div class="reason">${esc(blockedWords(r.blocks, 12))}</div>` : '';
    const replay = r.replay ? `<pre class="replay"><code>${esc(r.replay)}</code></pre>` : '';
    return `<li class="root${r.gating ? '' : ' non-gating'}"><code>${esc(r.suite)}</code> ${badge('failed', r.verdict.level)} <code>${esc(r.verdict.id)}</code> ${esc(r.verdict.text)}<div class="reason">failed in ${r.cases.map((c) => `<a href="#${failureAnchor(r.suite, c.id, r.verdict.id)}"><code>${esc(c.id)}</code></a>`).join(', ')}${r.gating ? '' : ' (does not gate at this level)'}</div>${replay}${blocked}</li>`;
  });
  const others = blockers.map((b) => `<li class="root blocker"><code>${esc(b.suite)}</code> <code>${esc(b.requirement)}</code> did not hold where cases rest on it (not failed in this run)<div class="reason">${esc(blockedWords(b.blocks, 12))}</div></li>`);
  return `<h2>Root failures (${roots.length})</h2><p class="reason">Fix these first: the requirements they block are judged again once they hold.</p><ol class="roots">${[...items, ...others].join('')}</ol>`;
}
