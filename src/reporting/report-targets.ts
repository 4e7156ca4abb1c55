/**
 * Checks every report destination before a run starts, so a path that cannot be written is a
 * usage error up front (exit 2) instead of a failure after the verdict was printed.
 */
import { accessSync, constants, lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { SpecgateError } from '../errors.js';
import { checkOutputFolder, isStreamName, refuseLinks } from './output-path.js';

/** One parsed `--report` value: the text as given and the absolute path it names. */
export interface ReportTarget {
  spec: string;
  format: string;
  path: string;
}

/** A file name to suggest inside a folder given by mistake. */
const FILE_NAMES: Record<string, string> = { junit: 'junit.xml', json: 'results.json', tap: 'results.tap', html: 'report.html' };

const statOf = (path: string, follow: boolean): Stats | undefined => {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return undefined;
  }
};

const writable = (path: string, mode: number = constants.W_OK): boolean => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

/**
 * The folder a new file at `path` lands in must exist or be creatable: something must be made
 * in its nearest existing ancestor (output-path.ts tries it).
 */
function checkFolder(spec: string, folder: string): void {
  checkOutputFolder(`--report ${spec}`, folder);
}

/**
 * A report on one of this process's streams by its system name (`/dev/stdout`, `/dev/fd/3`):
 * written through what it names, which must be writable and not a folder.
 */
function checkStream(t: ReportTarget): string {
  const st = statOf(t.path, true);
  if (!st) throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} names no open stream of this process; choose a file path`, { spec: t.spec });
  if (st.isDirectory()) throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} is a folder; name a file`, { spec: t.spec });
  if (!writable(t.path)) throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} cannot be written (permission denied); choose another path`, { spec: t.spec });
  return `${st.dev}:${st.ino}`;
}

/**
 * Checks one destination; returns the identity of the file written (for duplicate detection).
 * A path that is, or passes through, a symbolic link is refused (output-path.ts says why).
 */
function checkTarget(t: ReportTarget): string {
  if (isStreamName(t.path)) return checkStream(t);
  refuseLinks(`--report ${t.spec}`, t.path);
  const st = statOf(t.path, false);
  if (!st) {
    checkFolder(t.spec, dirname(t.path));
    return t.path;
  }
  if (st.isDirectory()) {
    throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} is a folder; name a file inside it (e.g. ${t.format}=${join(t.path, FILE_NAMES[t.format] ?? 'report')})`, { spec: t.spec });
  }
  if (st.isFile()) {
    // a regular file is replaced by a renamed sibling, so something must be made in its folder
    checkFolder(t.spec, dirname(t.path));
  } else if (!writable(t.path)) {
    throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} cannot be written (permission denied); choose another path`, { spec: t.spec });
  }
  return `${st.dev}:${st.ino}`;
}

/**
 * Checks that every report can be written and that no two reports write the same file.
 * Nothing is created: a run that stops at a usage error leaves no folders behind.
 * @throws SpecgateError `SG_USAGE` naming the `--report` value and what to change.
 */
export function checkReportTargets(targets: readonly ReportTarget[]): void {
  const seen = new Map<string, string>();
  for (const t of targets) {
    const identity = checkTarget(t);
    const earlier = seen.get(identity) ?? seen.get(t.path);
    if (earlier !== undefined) {
      throw new SpecgateError('SG_USAGE', `--report ${earlier} and --report ${t.spec} write the same file ${t.path}; give each report its own path`, { spec: t.spec });
    }
    seen.set(identity, t.spec);
    seen.set(t.path, t.spec);
  }
}
