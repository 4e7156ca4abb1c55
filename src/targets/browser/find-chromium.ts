import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { SpecgateError } from '../../errors.js';

/** The variable that names a Chromium executable, ahead of every other place looked at. */
export const CHROMIUM_VAR = 'SPECGATE_CHROMIUM';
/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** `SPECGATE_CHROMIUM=none`: use no browser (browser-driven cases are skipped), whatever is installed. */
export const NO_BROWSER = 'none';
/** What to do when no Chromium is found: said by the error, and by the skip reason of tests. */
export const CHROMIUM_HINT = `install Debian's browser (apt-get install chromium) or set ${CHROMIUM_VAR}=<path to a Chromium executable>`;

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium executable specgate drives, or undefined when there is none: `SPECGATE_CHROMIUM`
 * when set (it must then be an executable file: a mistyped path is not silently replaced by
 * another browser; `none` asks for no browser), else /usr/bin/chromium, else `chromium` on PATH.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env[CHROMIUM_VAR];
  if (named === NO_BROWSER) return undefined;
  if (named !== undefined && named !== '') return executable(named) ? named : undefined;
  if (executable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'chromium');
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** The Chromium executable, or an SG_CONFIG error that says how to get one. */
export function requireChromium(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  if (found) return found;
  const named = env[CHROMIUM_VAR];
  const why = named ? `${CHROMIUM_VAR}=${named} is not an executable file` : `no Chromium found (${CHROMIUM_VAR} unset, no ${DEBIAN_CHROMIUM}, no chromium on PATH)`;
  throw new SpecgateError('SG_CONFIG', `${why}: browser-driven cases need one; ${CHROMIUM_HINT}`);
}
