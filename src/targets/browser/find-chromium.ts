import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { SpecgateError } from '../../errors.js';

/** The variable that names a Chromium executable, ahead of every other place looked at. */
export const CHROMIUM_VAR = 'SPECGATE_CHROMIUM';
/** Where Debian's `chromium-headless-shell` package puts Chromium's headless shell: looked for first. */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/**
 * Where specgate looks for Chromium when SPECGATE_CHROMIUM is unset, in order: Debian's headless
 * shell, then Debian's browser. Both run the same engine (Blink, V8, the same version from one
 * source package); the shell is Chromium's headless-only build, without the desktop browser
 * around it, and is what Playwright itself runs for headless pages. Every browser specgate
 * starts is headless, and the shell costs much less CPU to start and to keep (figures in
 * docs/performance.md, section `whole-runs`).
 */
export const DEBIAN_PLACES: readonly string[] = Object.freeze([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]);
/** The executable names looked for on PATH after {@link DEBIAN_PLACES}: theirs, in the same order. */
export const PATH_NAMES: readonly string[] = Object.freeze(DEBIAN_PLACES.map((place) => basename(place)));
/** `SPECGATE_CHROMIUM=none`: use no browser (browser-driven cases are skipped), whatever is installed. */
export const NO_BROWSER = 'none';
/** What to do when no Chromium is found: said by the error, and by the skip reason of tests. */
export const CHROMIUM_HINT = `install Debian's headless Chromium (apt-get install chromium-headless-shell, or the whole browser: apt-get install chromium) or set ${CHROMIUM_VAR}=<path to a Chromium executable>`;

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
 * another browser; `none` asks for no browser), else the first of `places` that is an executable
 * ({@link DEBIAN_PLACES}), else `chromium-headless-shell`, then `chromium`, on PATH.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, places: readonly string[] = DEBIAN_PLACES): string | undefined {
  const named = env[CHROMIUM_VAR];
  if (named === NO_BROWSER) return undefined;
  if (named !== undefined && named !== '') return executable(named) ? named : undefined;
  const found = places.find(executable);
  if (found) return found;
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  for (const name of PATH_NAMES)
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  return undefined;
}

/** The Chromium executable ({@link findChromium}), or an SG_CONFIG error that says where it looked and how to get one. */
export function requireChromium(env: NodeJS.ProcessEnv = process.env, places: readonly string[] = DEBIAN_PLACES): string {
  const found = findChromium(env, places);
  if (found) return found;
  const named = env[CHROMIUM_VAR];
  const looked = places.length ? `none of ${places.join(', ')}, ` : '';
  const why = named ? `${CHROMIUM_VAR}=${named} is not an executable file` : `no Chromium found (${CHROMIUM_VAR} unset, ${looked}neither ${PATH_NAMES.join(' nor ')} on PATH)`;
  throw new SpecgateError('SG_CONFIG', `${why}: browser-driven cases need one; ${CHROMIUM_HINT}`);
}
