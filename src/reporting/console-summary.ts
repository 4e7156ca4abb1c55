/**
 * The end-of-run summary of the console reporter: cases per suite, requirement verdicts by
 * suite and level, baseline housekeeping, the verdict and what the exit code means.
 * Every line fits in 80 columns (long names get a line of their own).
 */
import type { BaselineEntry, Level, RequirementStatus, RequirementVerdict, RunResult, RunSummary, SuiteResult } from '../engine/model.js';
import { wrapText, type Style } from './style.js';
import { cleanText, oneLine, plural } from './text.js';
import { blockedWords, rootCauses } from './root-causes.js';

/** What each exit code means (DESIGN "Verdicts and reports"). */
export const EXIT_CODE_MEANING: Record<RunSummary['exitCode'], string> = {
  0: 'conformant at the gating level',
  1: 'conformance failures',
  2: 'usage, configuration or suite error',
  3: 'harness or target fault',
  4: 'too little judged: no gating requirement, or fewer than --require-judged asks',
  130: 'interrupted (SIGINT)',
  143: 'interrupted (SIGTERM)',
};

const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY', 'STRICTER'];
/** Levels whose row shows even when a suite has no requirement at them (STRICTER shows only where used). */
const ALWAYS_SHOWN: ReadonlySet<Level> = new Set(['MUST', 'SHOULD', 'MAY']);
const COLUMNS: { status: RequirementStatus; title: string }[] = [
  { status: 'passed', title: 'passed' },
  { status: 'failed', title: 'failed' },
  { status: 'untested', title: 'untested' },
  { status: 'blocked', title: 'blocked' },
  { status: 'excluded', title: 'excluded' },
  { status: 'expected-failure', title: 'exp-fail' },
  { status: 'not-applicable', title: 'n/a' },
];
const LABEL = 16;
const CELL = 9;

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

function caseLines(s: SuiteResult, st: Style): string[] {
  const n = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const c of s.cases) n[c.outcome] += 1;
  const counts = [
    st.green(`${n.passed} passed`),
    n.failed > 0 ? st.red(`${n.failed} failed`) : `${n.failed} failed`,
    n.errored > 0 ? st.yellow(`${n.errored} errored`) : `${n.errored} errored`,
    `${n.skipped} skipped`,
  ].join(', ');
  const side = s.sides?.length ? `, ${s.sides.join(' and ')} side${s.sides.length > 1 ? 's' : ''} only` : '';
  const lines = [`  ${st.bold(s.name)} ${st.dim(`(${plural(s.cases.length, 'case')}, ${seconds(s.durationMs)}${side})`)}`];
  // the cases of the selection only: said where the cases are counted
  if (s.selection) lines.push(...wrapText(`the cases covering ${s.selection.label}`, 80, '    ').map(st.dim));
  lines.push(`    ${counts}`);
  if (s.error) lines.push(...wrapText(`suite error ${s.error.code}: ${oneLine(cleanText(s.error.message), 300)}`, 80, '    ').map(st.red));
  return lines;
}

function row(label: string, cells: number[], st: Style): string {
  const text = cells.map((v, i) => {
    const padded = String(v).padStart(CELL);
    const status = COLUMNS[i]?.status;
    if (v === 0) return st.dim(padded);
    return status === 'failed' ? st.red(padded) : status === 'passed' ? st.green(padded) : padded;
  });
  return `${label.padEnd(LABEL)}${text.join('')}`;
}

function countByLevel(verdicts: RequirementVerdict[], level: Level): number[] {
  return COLUMNS.map((col) => verdicts.filter((v) => v.level === level && v.status === col.status).length);
}

function requirementTable(run: RunResult, st: Style): string[] {
  const header = `${'Requirements'.padEnd(LABEL)}${COLUMNS.map((c) => c.title.padStart(CELL)).join('')}`;
  const lines = [st.bold(header)];
  const all: RequirementVerdict[] = [];
  for (const s of run.suites) {
    const verdicts = s.requirements.length > 0 ? s.requirements : run.requirements.filter((v) => v.suite === s.name);
    all.push(...verdicts);
    lines.push(`  ${s.name}`);
    for (const level of LEVELS) if (ALWAYS_SHOWN.has(level) || verdicts.some((v) => v.level === level)) lines.push(row(`    ${level}`, countByLevel(verdicts, level), st));
  }
  const totals = COLUMNS.map((_, i) => LEVELS.reduce((sum, level) => sum + (countByLevel(all, level)[i] ?? 0), 0));
  lines.push(row('  total', totals, st));
  // a column more would not fit 80 columns; runs that select nothing have none of these
  for (const s of run.suites) {
    const notSelected = (s.requirements.length > 0 ? s.requirements : run.requirements.filter((v) => v.suite === s.name)).filter((v) => v.status === 'not-selected').length;
    if (notSelected) lines.push(...wrapText(`${s.name}: ${plural(notSelected, 'requirement')} not selected (outside ${s.selection?.label ?? "the run's selection"})`, 80, '  ', '    ').map(st.dim));
  }
  return lines;
}

function baselineLines(title: string, entries: BaselineEntry[], st: Style, expired: boolean): string[] {
  if (entries.length === 0) return [];
  const lines = ['', st.yellow(title)];
  for (const e of entries) {
    const when = expired && e.expires ? ` (expired ${e.expires})` : '';
    lines.push(`  - ${e.id}${when}: ${oneLine(cleanText(e.reason), 60)}`);
  }
  return lines;
}

/**
 * The root failures, before anything else: each failed requirement with the command that
 * replays it first, then what it blocks; then rules that blocked others without failing here.
 */
function rootCauseLines(run: RunResult, st: Style): string[] {
  const { roots, blockers } = rootCauses(run);
  if (!roots.length && !blockers.length) return [];
  const lines = [st.bold(`Root failures (${roots.length}): fix these first, then run again`)];
  for (const r of roots) {
    const mark = r.gating ? st.red('×') : st.yellow('~');
    lines.push(...wrapText(cleanText(`${mark} ${r.suite} ${r.verdict.id} (${r.verdict.level}${r.gating ? '' : ', does not gate'}): ${r.verdict.text}`), 80, '  ', '      '));
    if (r.replay) lines.push(`      replay: ${st.bold(cleanText(r.replay))}`);
    lines.push(...wrapText(cleanText(`failed in ${plural(r.cases.length, 'case')}${r.cases.length ? ` (${r.cases.slice(0, 3).map((c) => c.id).join(', ')}${r.cases.length > 3 ? ', ...' : ''})` : ''}${r.blocks.length ? `; ${blockedWords(r.blocks)}` : ''}`), 80, '      ', '      ').map(st.dim));
  }
  for (const b of blockers)
    lines.push(...wrapText(cleanText(`- ${b.suite} ${b.requirement} did not hold where cases rest on it (not failed in this run): ${blockedWords(b.blocks)}`), 80, '  ', '    ').map(st.yellow));
  return [...lines, ''];
}

/** The summary block printed after `run-finish`, as lines without trailing newlines. */
export function summaryLines(run: RunResult, st: Style): string[] {
  const { summary } = run;
  const lines = ['', st.bold(`Summary (seed ${run.seed}${run.stricter ? ', stricter' : run.strict ? ', strict' : ''}, ${seconds(run.durationMs)})`), ''];
  lines.push(...rootCauseLines(run, st));
  lines.push(st.bold('Cases'));
  for (const s of run.suites) lines.push(...caseLines(s, st));
  lines.push('', ...requirementTable(run, st));
  lines.push(...baselineLines('Stale baseline entries (they pass now: remove them from the baseline)', summary.staleBaseline, st, false));
  lines.push(...baselineLines('Expired baseline entries (fix the failure or renew the entry)', summary.expiredBaseline, st, true));
  const verdict = oneLine(cleanText(summary.verdict), 500);
  const paint = summary.exitCode === 0 ? st.green : st.red;
  lines.push('', paint(st.bold(verdict)), `exit code ${summary.exitCode}: ${EXIT_CODE_MEANING[summary.exitCode]}`);
  return lines;
}
