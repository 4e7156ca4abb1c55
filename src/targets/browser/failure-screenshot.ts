import { closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse, resolve, sep } from 'node:path';
import type { Page } from 'playwright-core';

/** The folder screenshots go to when the run has no report folder. */
export function defaultScreenshotDir(): string {
  return join(tmpdir(), 'specgate-screenshots');
}

/**
 * The folder of a run's failure screenshots, beside its reports: `<report folder>/screenshots`,
 * made absolute so that the path a failure names can be opened from anywhere.
 */
export function reportScreenshotDir(reportDir: string): string {
  return resolve(reportDir, 'screenshots');
}

/** A file-name part made of letters, digits, `.`, `_` and `-` only. */
function part(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || '_';
}

/** What a screenshot is named after: the suite (its folder), the case, the action and the failed step. */
export interface ScreenshotSubject {
  suite?: string;
  caseId?: string;
  action: string;
  step?: number;
}

/**
 * Names the failure screenshots of one run: `<dir>/<suite>/<case>--<action>--step<N>.png`, with
 * `-2`, `-3` ... when the same case fails the same step again in this run. The count is the
 * run's own, not what the folder already holds: a report folder used again gets this run's
 * pictures under the same names, never numbers that continue an earlier run's.
 */
export class ScreenshotNames {
  private readonly used = new Map<string, number>();

  constructor(private readonly dir: string) {}

  next(subject: ScreenshotSubject): string {
    const base = [subject.caseId, subject.action].filter((s): s is string => s !== undefined && s !== '').map(part).join('--') + (subject.step !== undefined ? `--step${subject.step}` : '');
    const folder = subject.suite !== undefined && subject.suite !== '' ? join(this.dir, part(subject.suite)) : this.dir;
    const key = join(folder, base);
    const n = (this.used.get(key) ?? 0) + 1;
    this.used.set(key, n);
    return join(folder, n === 1 ? `${base}.png` : `${base}-${n}.png`);
  }
}

/**
 * Makes `folder` and its missing parents one at a time; false when a part of it is a symbolic
 * link or not a folder. The folder is beside the reports, or in the shared temp folder, where a
 * link planted in the way would send the picture wherever it points: no picture is better.
 */
function folderWithoutLinks(folder: string): boolean {
  const abs = resolve(folder);
  let at = parse(abs).root;
  for (const part of abs.slice(at.length).split(sep).filter(Boolean)) {
    at = join(at, part);
    try {
      mkdirSync(at);
    } catch {
      // there already (or not makeable): what it is decides
    }
    try {
      const st = lstatSync(at);
      if (st.isSymbolicLink() || !st.isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Saves a PNG of `page` as it is now to `file` (its folder made when missing) and returns the
 * path; undefined when the page cannot be captured (already closed, the browser gone) or when
 * the file would be written through a symbolic link, so that a failure is still reported
 * without its picture.
 */
export async function saveFailureScreenshot(page: Page, file: string): Promise<string | undefined> {
  try {
    if (!folderWithoutLinks(dirname(file))) return undefined;
    const png = await page.screenshot({ fullPage: true, timeout: 5000 });
    // O_NOFOLLOW: a link at the file's own name fails the write rather than taking it
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
    try {
      let done = 0;
      while (done < png.length) done += writeSync(fd, png, done, png.length - done);
    } finally {
      closeSync(fd);
    }
    return file;
  } catch {
    return undefined;
  }
}
