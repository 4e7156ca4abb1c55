import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** The folder screenshots go to when the run has no report folder. */
export function defaultScreenshotDir(): string {
  return join(tmpdir(), 'specgate-screenshots');
}

/** A file-name part made of letters, digits, `.`, `_` and `-` only. */
function part(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || '_';
}

/**
 * Saves a PNG of `page` as it is now into `dir`, named after the case and the action
 * (`<case>--<action>--step<N>.png`, a counter added when that name is taken), and returns its
 * path; undefined when the page cannot be captured (already closed, the browser gone), so that
 * a failure is still reported without its picture.
 */
export async function saveFailureScreenshot(page: Page, dir: string, names: { caseId?: string; action: string; step?: number }): Promise<string | undefined> {
  try {
    mkdirSync(dir, { recursive: true });
    const base = [names.caseId, names.action].filter((s): s is string => s !== undefined && s !== '').map(part).join('--') + (names.step !== undefined ? `--step${names.step}` : '');
    let file = join(dir, `${base}.png`);
    for (let n = 2; existsSync(file); n++) file = join(dir, `${base}-${n}.png`);
    await page.screenshot({ path: file, fullPage: true, timeout: 5000 });
    return file;
  } catch {
    return undefined;
  }
}
