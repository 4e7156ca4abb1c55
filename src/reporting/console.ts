/**
 * Human-readable console output: live progress, each failure as it happens in h2spec style
 * (requirement ID and text, then expected, then actual, then the replay command), and a
 * summary at the end (see console-summary.ts).
 */
import type { EngineEvent } from '../engine/events.js';
import type { CaseResult, Requirement } from '../engine/model.js';
import { caseLines, countsAsFailed, type CaseLineContext } from './console-case.js';
import { ConsoleStatus } from './console-status.js';
import { summaryLines } from './console-summary.js';
import type { Reporter } from './reporter.js';
import { makeStyle, wrapText, type Style } from './style.js';
import { cleanText } from './text.js';

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

/** Creates the console reporter. It writes as events arrive; finish() only clears the status line. */
export function createConsoleReporter(opts: ConsoleReporterOptions): Reporter {
  const { stream, verbose = false } = opts;
  const st: Style = makeStyle(opts.color ?? false);
  const now = opts.now ?? Date.now;
  const width = Math.max(40, Math.min(opts.stream.columns ?? 80, 120));
  const requirements = new Map<string, Requirement>();
  const status = new ConsoleStatus(stream, st, now, stream.isTTY === true, width);
  const print = (lines: string[]): void => status.print(lines);
  const lineContext: CaseLineContext = { st, width, verbose, requirement: (suite, id) => requirements.get(`${suite}\u0000${id}`) };

  /** Counts a finished case, prints what it says, and updates the progress. */
  const onCase = (c: CaseResult): void => {
    status.done += 1;
    if (countsAsFailed(c)) status.failed += 1;
    const lines = caseLines(lineContext, c);
    if (lines) print(lines);
    status.update(false);
  };

  const onEvent = (e: EngineEvent): void => {
    switch (e.type) {
      case 'run-start':
        status.total = e.suites.reduce((sum, s) => sum + s.cases, 0);
        status.startedAt = now();
        break;
      case 'suite-start':
        status.suite = e.suite;
        for (const r of e.requirements) requirements.set(`${e.suite}\u0000${r.id}`, r);
        if (verbose) print([st.bold(`${e.suite} → ${cleanText(e.target)}`)]);
        status.update(true);
        break;
      case 'case-finish':
        onCase(e.result);
        break;
      case 'suite-finish':
        if (e.result.error) print(wrapText(cleanText(`suite ${e.suite} failed: ${e.result.error.code}: ${e.result.error.message}`), width, '  ').map(st.red));
        status.update(true);
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
    finish: async () => status.clear(),
  };
}
