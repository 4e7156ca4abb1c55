/**
 * Checks every report destination before a run starts, so a path that cannot be written is a
 * usage error up front (exit 2) instead of a crash after the verdict was printed.
 */
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SpecgateError } from '../errors.js';

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
 * The folder a new file at `path` lands in must exist or be creatable: its nearest existing
 * ancestor has to be a folder we may write into.
 */
function checkFolder(spec: string, folder: string): void {
  let at = folder;
  while (statOf(at, true) === undefined && dirname(at) !== at) at = dirname(at);
  const st = statOf(at, true);
  if (st && !st.isDirectory()) {
    throw new SpecgateError('SG_USAGE', `--report ${spec}: ${at} is a file, so the folder ${folder} cannot be created; choose a path under a folder`, { spec });
  }
  if (!writable(at, constants.W_OK | constants.X_OK)) {
    throw new SpecgateError('SG_USAGE', `--report ${spec}: cannot write into ${at} (permission denied); choose a folder you can write to`, { spec });
  }
}

/** Checks one destination; returns the identity of the file written (for duplicate detection). */
function checkTarget(t: ReportTarget): string {
  const link = statOf(t.path, false);
  if (!link) {
    checkFolder(t.spec, dirname(t.path));
    return t.path;
  }
  const st = statOf(t.path, true);
  if (st?.isDirectory()) {
    throw new SpecgateError('SG_USAGE', `--report ${t.spec}: ${t.path} is a folder; name a file inside it (e.g. ${t.format}=${join(t.path, FILE_NAMES[t.format] ?? 'report')})`, { spec: t.spec });
  }
  if (!st) {
    // a link to nothing yet: the file is created where the link points
    const to = resolve(dirname(t.path), readlinkSync(t.path));
    checkFolder(t.spec, dirname(to));
    return to;
  }
  const real = realpathSync(t.path);
  if (st.isFile()) {
    // a regular file is replaced by a renamed sibling, so its folder must be writable
    if (!writable(dirname(real), constants.W_OK | constants.X_OK)) {
      throw new SpecgateError('SG_USAGE', `--report ${t.spec}: cannot write into ${dirname(real)} (permission denied); choose a folder you can write to`, { spec: t.spec });
    }
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
