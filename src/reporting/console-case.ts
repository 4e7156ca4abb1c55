/**
 * What the console prints for one finished case: a failure in h2spec style (requirement ID and
 * text, then expected, then actual, then the replay command), an error, a stale baseline entry,
 * or (verbose) a one-line mark.
 */
import type { CaseResult, Exchange, Failure, Requirement } from '../engine/model.js';
import { curlCommand, curlNote, exchangeLines, exchangesToShow } from './exchange-text.js';
import { assertionsOf } from './failure-text.js';
import { showValue } from './json-text.js';
import { wrapText, type Style } from './style.js';
import { cleanText, oneLine, skipText, truncate } from './text.js';

/** In non-verbose mode a value longer than this is shortened; the file reports keep all. */
const VALUE_MAX = 800;

/** What case lines depend on besides the case. */
export interface CaseLineContext {
  st: Style;
  width: number;
  verbose: boolean;
  /** The requirement a failure names, if the suite announced it. */
  requirement(suite: string, id: string): Requirement | undefined;
}

/** Whether a case counts as failed in the progress line (errored, or failed against no baseline entry). */
export function countsAsFailed(c: CaseResult): boolean {
  return c.outcome === 'errored' || (c.outcome === 'failed' && c.baseline !== 'expected-failure');
}

/** The lines printed for a finished case, or undefined when it prints nothing. */
export function caseLines(ctx: CaseLineContext, c: CaseResult): string[] | undefined {
  const { st, width, verbose } = ctx;
  const name = `${c.suite}/${c.id}`;
  if (c.outcome === 'failed' && c.baseline === 'expected-failure') {
    return verbose ? [st.dim(`  ~ ${name}: expected failure (baseline)`)] : undefined;
  }
  if (c.outcome === 'failed') return [st.red(`  × ${name}`), ...failedCaseLines(ctx, c), ''];
  if (c.outcome === 'errored') {
    const why = cleanText(`${c.errorCode ?? 'error'}: ${c.reason ?? 'errored'}`);
    return [st.yellow(`  ! ${name}`), ...wrapText(why, width, '    ', '      '), ''];
  }
  if (c.outcome === 'passed' && c.baseline === 'stale') {
    return wrapText(`? ${name}: passes, but the baseline expects it to fail (remove it from the baseline)`, width, '  ', '    ').map(st.yellow);
  }
  if (!verbose) return undefined;
  const mark = c.outcome === 'passed' ? st.green('✓') : st.dim('-');
  return [`  ${mark} ${name}${c.outcome === 'skipped' ? st.dim(` (${c.notApplicable ? '' : 'skipped: '}${oneLine(cleanText(c.notApplicable ? skipText(c) : (c.reason ?? '')), 60)})`) : ''}`];
}

/**
 * A failed case's failures, each followed by the exchange it was judged on (once for failures
 * judged on the same one) with a `curl` command that sends its request again, and the command
 * that replays the case when no property failure printed its own.
 */
function failedCaseLines(ctx: CaseLineContext, c: CaseResult): string[] {
  const lines: string[] = [];
  const shown = exchangesToShow(c);
  let replayed = false;
  c.failures.forEach((f, i) => {
    lines.push(...failureLines(ctx, c, f, shown[i] ?? []));
    replayed ||= (f.property ?? c.property)?.replay !== undefined;
  });
  if (!replayed && c.replay !== undefined) lines.push(`       Replay: ${ctx.st.bold(cleanText(c.replay))}`);
  return lines;
}

/** An exchange as the console shows it: its request and answer (heads of the bodies), and a curl line for HTTP. */
function exchangeBlock(ctx: CaseLineContext, x: Exchange): string[] {
  const { st, width, verbose } = ctx;
  const detail = exchangeLines(x, verbose ? 2000 : 200);
  if (!detail) return [st.dim(`       Exchange: ${oneLine(cleanText(x.summary), width)}`)];
  const lines = detail.map((l) => {
    const indent = /^ */.exec(l)?.[0] ?? '';
    return st.dim(`       ${indent}${oneLine(cleanText(l), Math.max(40, width - 7 - indent.length))}`);
  });
  const curl = curlCommand(x);
  if (curl !== undefined) {
    // never shortened: it must stay copy-pasteable
    lines.push(`       Try: ${cleanText(curl)}`);
    const note = curlNote(curl);
    if (note) lines.push(st.dim(`            ${note}`));
  }
  return lines;
}

/**
 * One failure: the requirement, then each failed assertion of it (numbered when there are
 * several) with expected, actual and the exchange `shown` gives it, and how to replay it.
 */
function failureLines(ctx: CaseLineContext, c: CaseResult, f: Failure, shown: readonly (Exchange | undefined)[]): string[] {
  const { st, width } = ctx;
  const req = ctx.requirement(c.suite, f.requirement);
  const head = req ? `${f.requirement} (${req.level}): ${req.text}` : f.requirement;
  const lines = wrapText(cleanText(`-> ${head}`), width, '    ', '       ');
  const assertions = assertionsOf(f);
  const several = assertions.length > 1;
  if (several) lines.push(`       ${assertions.length} failed assertions:`);
  assertions.forEach((a, i) => {
    const indent = several ? '          ' : '       ';
    lines.push(...wrapText(cleanText(several ? `${i + 1}) ${a.message}` : a.message), width, several ? '       ' : indent, indent));
    if (a.expected !== undefined) lines.push(...valueLines(ctx, 'Expected:', a.expected, indent));
    if (a.actual !== undefined) lines.push(...valueLines(ctx, '  Actual:', a.actual, indent));
    const x = shown[i];
    if (x !== undefined) lines.push(...exchangeBlock(ctx, x));
  });
  const p = f.property ?? c.property;
  if (p) {
    lines.push(st.dim(`       Seed: ${p.seed}${p.path !== undefined ? `, path: ${p.path}` : ''}`));
    if (p.counterexample !== undefined) lines.push(...valueLines(ctx, 'Counterexample:', p.counterexample, '       '));
    // Never shortened: it must stay copy-pasteable.
    if (p.replay !== undefined) lines.push(`       Replay: ${st.bold(cleanText(p.replay))}`);
  }
  return lines;
}

/** A labelled value, continuation lines aligned under its first; shortened unless verbose. */
function valueLines(ctx: CaseLineContext, label: string, v: unknown, indent: string): string[] {
  const text = cleanText(showValue(v, ctx.width - indent.length - label.length - 1));
  const shown = ctx.verbose ? text : truncate(text, VALUE_MAX);
  const [first = '', ...rest] = shown.split('\n');
  return [`${indent}${label} ${first}`, ...rest.map((l) => `${indent}${' '.repeat(label.length + 1)}${l}`)];
}
