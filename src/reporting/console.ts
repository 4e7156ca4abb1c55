/**
 * Human-readable console output: live progress, each failure as it happens in h2spec style
 * (requirement ID and text, then expected, then actual, then the replay command), and a
 * summary at the end (see console-summary.ts).
 */
import type { EngineEvent } from '../engine/events.js';
import type { CaseResult, Failure, Requirement } from '../engine/model.js';
import { summaryLines } from './console-summary.js';
import { showValue } from './json-text.js';
import type { Reporter } from './reporter.js';
import { makeStyle, wrapText, type Style } from './style.js';
import { cleanText, oneLine, skipText, truncate } from './text.js';

/** Options of {@link createConsoleReporter}. */
export interface ConsoleReporterOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** ANSI colors; the caller decides (TTY, NO_COLOR, --no-color). */
  color?: boolean;
  /** One line per case, full values instead of shortened ones, info-level logs. */
  verbose?: boolean;
  /** Clock for progress throttling (tests inject one). */
  now?: () => number;
}

/** A TTY status line is redrawn at most this often (about 10 updates per second). */
const TTY_INTERVAL_MS = 100;
/** Without a TTY, a progress line at most this often, and only once a run is this old. */
const LOG_INTERVAL_MS = 5000;
/** In non-verbose mode a value longer than this is shortened; the file reports keep all. */
const VALUE_MAX = 800;

/** Creates the console reporter. It writes as events arrive; finish() only clears the status line. */
export function createConsoleReporter(opts: ConsoleReporterOptions): Reporter {
  const { stream, verbose = false } = opts;
  const st: Style = makeStyle(opts.color ?? false);
  const now = opts.now ?? Date.now;
  const tty = stream.isTTY === true;
  const width = Math.max(40, Math.min(opts.stream.columns ?? 80, 120));
  const requirements = new Map<string, Requirement>();
  let total = 0;
  let done = 0;
  let failed = 0;
  let suite = '';
  let startedAt = now();
  let lastProgress = Number.NEGATIVE_INFINITY;
  let statusShown = false;

  let trailing: NodeJS.Timeout | undefined;
  const stopTrailing = (): void => {
    if (trailing) clearTimeout(trailing);
    trailing = undefined;
  };
  const clearStatus = (): void => {
    stopTrailing();
    if (statusShown) stream.write('\r\u001b[2K');
    statusShown = false;
  };
  const print = (lines: string[]): void => {
    clearStatus();
    stream.write(`${lines.join('\n')}\n`);
  };
  const progressText = (): string => `[${suite}] ${done}/${total} cases, ${failed} failed`;

  const draw = (t: number): void => {
    stopTrailing();
    // Cut to the terminal width: a wrapped line cannot be rewritten with \r.
    stream.write(`\r\u001b[2K${st.dim(progressText().slice(0, width - 1))}`);
    statusShown = true;
    lastProgress = t;
  };

  const progress = (force: boolean): void => {
    const t = now();
    if (tty) {
      if (force || t - lastProgress >= TTY_INTERVAL_MS) return draw(t);
      // Throttled: still show the latest count soon, or a slow case would hide it.
      trailing ??= setTimeout(() => draw(now()), TTY_INTERVAL_MS).unref();
      return;
    }
    if (t - startedAt < LOG_INTERVAL_MS || t - lastProgress < LOG_INTERVAL_MS) return;
    stream.write(`${progressText()}\n`);
    lastProgress = t;
  };

  const value = (label: string, v: unknown, indent: string): string[] => {
    const text = cleanText(showValue(v, width - indent.length - label.length - 1));
    const shown = verbose ? text : truncate(text, VALUE_MAX);
    const [first = '', ...rest] = shown.split('\n');
    return [`${indent}${label} ${first}`, ...rest.map((l) => `${indent}${' '.repeat(label.length + 1)}${l}`)];
  };

  const failureLines = (c: CaseResult, f: Failure): string[] => {
    const req = requirements.get(`${c.suite}\u0000${f.requirement}`);
    const head = req ? `${f.requirement} (${req.level}): ${req.text}` : f.requirement;
    const lines = [...wrapText(cleanText(`-> ${head}`), width, '    ', '       '), ...wrapText(cleanText(f.message), width, '       ')];
    if (f.expected !== undefined) lines.push(...value('Expected:', f.expected, '       '));
    if (f.actual !== undefined) lines.push(...value('  Actual:', f.actual, '       '));
    if (f.exchange) lines.push(st.dim(`       Exchange: ${oneLine(cleanText(f.exchange.summary), width)}`));
    const p = f.property ?? c.property;
    if (p) {
      lines.push(st.dim(`       Seed: ${p.seed}${p.path !== undefined ? `, path: ${p.path}` : ''}`));
      if (p.counterexample !== undefined) lines.push(...value('Counterexample:', p.counterexample, '       '));
      // Never shortened: it must stay copy-pasteable.
      if (p.replay !== undefined) lines.push(`       Replay: ${st.bold(cleanText(p.replay))}`);
    }
    return lines;
  };

  const onCase = (c: CaseResult): void => {
    done += 1;
    const name = `${c.suite}/${c.id}`;
    if (c.outcome === 'failed' && c.baseline === 'expected-failure') {
      if (verbose) print([st.dim(`  ~ ${name}: expected failure (baseline)`)]);
    } else if (c.outcome === 'failed') {
      failed += 1;
      print([st.red(`  × ${name}`), ...c.failures.flatMap((f) => failureLines(c, f)), '']);
    } else if (c.outcome === 'errored') {
      failed += 1;
      const why = cleanText(`${c.errorCode ?? 'error'}: ${c.reason ?? 'errored'}`);
      print([st.yellow(`  ! ${name}`), ...wrapText(why, width, '    ', '      '), '']);
    } else if (c.outcome === 'passed' && c.baseline === 'stale') {
      print(wrapText(`? ${name}: passes, but the baseline expects it to fail (remove it from the baseline)`, width, '  ', '    ').map(st.yellow));
    } else if (verbose) {
      const mark = c.outcome === 'passed' ? st.green('✓') : st.dim('-');
      print([`  ${mark} ${name}${c.outcome === 'skipped' ? st.dim(` (${c.notApplicable ? '' : 'skipped: '}${oneLine(cleanText(c.notApplicable ? skipText(c) : (c.reason ?? '')), 60)})`) : ''}`]);
    }
    progress(false);
  };

  const onEvent = (e: EngineEvent): void => {
    switch (e.type) {
      case 'run-start':
        total = e.suites.reduce((sum, s) => sum + s.cases, 0);
        startedAt = now();
        break;
      case 'suite-start':
        suite = e.suite;
        for (const r of e.requirements) requirements.set(`${e.suite}\u0000${r.id}`, r);
        if (verbose) print([st.bold(`${e.suite} → ${cleanText(e.target)}`)]);
        progress(true);
        break;
      case 'case-finish':
        onCase(e.result);
        break;
      case 'suite-finish':
        if (e.result.error) print(wrapText(cleanText(`suite ${e.suite} failed: ${e.result.error.code}: ${e.result.error.message}`), width, '  ').map(st.red));
        progress(true);
        break;
      case 'log':
        if (e.level === 'warn' || verbose) print([`${e.level === 'warn' ? st.yellow('warning:') : 'info:'} ${cleanText(e.message)}`]);
        break;
      case 'run-finish':
        print(summaryLines(e.result, st));
        break;
      default:
        break;
    }
  };

  return {
    onEvent,
    finish: async () => clearStatus(),
  };
}
