/**
 * Reporter selection from the CLI's `--report` values, and the public surface of the
 * reporting folder.
 */
import { isAbsolute, resolve } from 'node:path';
import { SpecgateError } from '../errors.js';
import { createHtmlReporter } from './html.js';
import { createJsonReporter } from './json.js';
import { createJUnitReporter } from './junit.js';
import type { Reporter } from './reporter.js';
import { checkReportTargets } from './report-targets.js';
import { createTapReporter } from './tap.js';

export type { Reporter } from './reporter.js';
export { createConsoleReporter, type ConsoleReporterOptions } from './console.js';
export { finishWriters, holdSummary, type HeldSummary } from './held-summary.js';
export { createHtmlReporter, renderHtml } from './html.js';
export { createJsonReporter, renderJson } from './json.js';
export { createJUnitReporter, renderJUnit } from './junit.js';
export { createTapReporter, renderTap } from './tap.js';

/** The file formats `--report` accepts. */
export type ReportFormat = 'junit' | 'json' | 'tap' | 'html';

const FACTORIES: Record<ReportFormat, (path: string) => Reporter> = {
  junit: createJUnitReporter,
  json: createJsonReporter,
  tap: createTapReporter,
  html: createHtmlReporter,
};

const USAGE = '--report takes junit=<path>, json=<path> or tap=<path> for machines, or html=<path> for a page to read (e.g. --report junit=reports/junit.xml)';

/** Options of {@link createReporter}. */
export interface CreateReporterOptions {
  /** Folder that relative report paths are resolved against (default: process.cwd()). */
  cwd?: string;
}

/**
 * Parses one `--report` value into a format and an absolute path.
 * @throws SpecgateError `SG_USAGE` for anything but `junit=<path>`, `json=<path>`, `tap=<path>`, `html=<path>`.
 */
export function parseReportSpec(spec: string, opts: CreateReporterOptions = {}): { format: ReportFormat; path: string } {
  const eq = spec.indexOf('=');
  const format = eq < 0 ? spec : spec.slice(0, eq);
  const path = eq < 0 ? '' : spec.slice(eq + 1);
  if (!Object.hasOwn(FACTORIES, format)) {
    throw new SpecgateError('SG_USAGE', `unknown report "${spec}": ${USAGE}`, { spec });
  }
  if (path.trim() === '') {
    throw new SpecgateError('SG_USAGE', `report "${spec}" has no file path: ${USAGE}`, { spec });
  }
  const cwd = opts.cwd ?? process.cwd();
  return { format: format as ReportFormat, path: isAbsolute(path) ? path : resolve(cwd, path) };
}

/**
 * Creates the file reporter a `--report` value names.
 * @throws SpecgateError `SG_USAGE` when the value is not one of the allowed forms.
 */
export function createReporter(spec: string, opts: CreateReporterOptions = {}): Reporter {
  const { format, path } = parseReportSpec(spec, opts);
  return FACTORIES[format](path);
}

/**
 * Creates the file reporters of several `--report` values after checking, before anything
 * runs, that each can be written and that no two write the same file.
 * @throws SpecgateError `SG_USAGE` for a malformed value or a path that cannot take a report.
 */
export function createReporters(specs: readonly string[], opts: CreateReporterOptions = {}): Reporter[] {
  const parsed = specs.map((spec) => ({ spec, ...parseReportSpec(spec, opts) }));
  checkReportTargets(parsed);
  return parsed.map((p) => FACTORIES[p.format](p.path));
}
