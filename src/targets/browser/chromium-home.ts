import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where one Chromium of specgate keeps everything it writes: its profile and a home of its own.
 * Chromium, GLib and Debian's wrapper script write beside the profile as well, under the user's
 * home (`~/.config/chromium/Crash Reports`, `~/.cache/dconf`, `~/.pki`): started with this
 * folder's environment they write here instead, and the folder goes when the browser does.
 */
export interface ChromiumHome {
  /** The folder holding everything below, removed by {@link ChromiumHome.remove}. */
  readonly dir: string;
  /** The user-data-dir for a browser started with a profile of its own. */
  readonly profileDir: string;
  /** Where a crash would leave its dump (`--crash-dumps-dir`). */
  readonly crashDir: string;
  /** The environment Chromium starts with: the caller's, its home and XDG folders moved here. */
  readonly env: Record<string, string>;
  /**
   * The browser is running: should the process end before {@link ChromiumHome.remove}, the folder
   * goes as it exits. Called once the browser has started, when Playwright's own exit hook (which
   * kills the browsers it started) is in place: hooks run in order, so the kill comes first.
   */
  started(): void;
  /** Removes the folder and all in it; safe to call more than once. */
  remove(): void;
}

/** The variables moved under the folder, each to a sub-folder of that name. */
const MOVED: ReadonlyArray<readonly [variable: string, folder: string]> = [
  ['HOME', 'home'],
  ['XDG_CONFIG_HOME', 'config'],
  ['XDG_CACHE_HOME', 'cache'],
  ['XDG_DATA_HOME', 'data'],
  ['XDG_STATE_HOME', 'state'],
  // dconf keeps its user database here when set, under XDG_CACHE_HOME when not
  ['XDG_RUNTIME_DIR', 'runtime'],
];

/** Folders of browsers still running; a process that ends first removes them on its way out. */
const live = new Set<string>();
let exitHook = false;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/**
 * Makes a fresh folder in the OS temp folder for one Chromium and the environment that keeps it
 * there. `base` is the environment to start from (the process's): its other variables (PATH,
 * TZ, proxies, a display) pass unchanged.
 */
export function makeChromiumHome(base: NodeJS.ProcessEnv = process.env): ChromiumHome {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-chromium-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  for (const [variable, folder] of MOVED) {
    const path = join(dir, folder);
    // XDG_RUNTIME_DIR must be the user's alone (the XDG base directory rules)
    mkdirSync(path, { mode: 0o700 });
    env[variable] = path;
  }
  // GSettings reads and writes nothing on disk (no dconf database at all)
  env['GSETTINGS_BACKEND'] = 'memory';
  const profileDir = join(dir, 'profile');
  const crashDir = join(dir, 'crashes');
  mkdirSync(profileDir, { mode: 0o700 });
  mkdirSync(crashDir, { mode: 0o700 });
  let removed = false;
  const started = (): void => {
    if (removed) return;
    live.add(dir);
    // a browser nobody closed (the shared one, idle when the run ends) is killed by Playwright
    // as the process exits; its folder goes then too
    if (!exitHook) {
      exitHook = true;
      process.once('exit', removeLive);
    }
  };
  const remove = (): void => {
    removed = true;
    live.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, profileDir, crashDir, env, started, remove };
}
