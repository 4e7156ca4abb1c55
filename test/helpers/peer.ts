/**
 * Tests that need a third-party program or service ("peer": xmllint, a database, a vendor
 * server). Locally a missing peer skips those tests with a visible reason; under CI (env CI
 * set) it fails, because a CI image that silently lost a peer would otherwise turn a gate green.
 *
 * Usage:
 *   const xmllint = requirePeer('xmllint', commandAvailable('xmllint'), 'apt-get install libxml2-utils');
 *   declarePeer(xmllint);                       // a visible skip, or a failing test under CI
 *   describe.skipIf(xmllint.skip)('...', () => { ... });
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import { it } from 'vitest';
import { fromRoot } from '../../src/paths.js';

/** Whether tests that need a peer run, and what to tell the user if they do not. */
export interface PeerRequirement {
  name: string;
  available: boolean;
  /** True when dependent tests must be skipped (the peer is missing). */
  skip: boolean;
  /** True when the missing peer must fail the run (CI). */
  required: boolean;
  /** Human-readable explanation, empty when the peer is available. */
  reason: string;
}

/** True when running under CI: `CI` set to anything but "", "0" or "false". */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * Describes a peer requirement.
 * @param name what is needed, e.g. "xmllint"
 * @param available whether it was found
 * @param hint how to get it, appended to the reason
 */
export function requirePeer(name: string, available: boolean, hint?: string, env: NodeJS.ProcessEnv = process.env): PeerRequirement {
  const required = !available && underCi(env);
  const reason = available ? '' : `${name} is not available${hint ? ` (${hint})` : ''}${required ? '; required because CI is set' : ''}`;
  return { name, available, skip: !available, required, reason };
}

/**
 * Registers one test that makes a missing peer visible: skipped with the reason in its name
 * locally, failing with the reason under CI. Does nothing when the peer is available.
 */
export function declarePeer(peer: PeerRequirement): void {
  if (peer.available) return;
  if (peer.required) {
    it(`peer ${peer.name} is available`, () => {
      throw new Error(peer.reason);
    });
  } else {
    // Also on stderr: the default vitest reporter only counts skips, it does not name them.
    console.warn(`[peer] ${peer.reason}: dependent tests are skipped`);
    it.skip(`peer ${peer.name} missing: ${peer.reason}`, () => undefined);
  }
}

/** Whether `command` can be started (it is run once with `args`; only a spawn failure counts). */
export function commandAvailable(command: string, args: string[] = ['--version']): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return r.error === undefined;
}

/** Whether the package `name` can be resolved from this project (an installed dependency). */
export function moduleAvailable(name: string): boolean {
  try {
    createRequire(fromRoot('package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The compiled specgate as a peer: dist/cli/main.js and each of `distFiles` exist. A file is
 * given relative to dist/ (e.g. 'suites/plugin/index.js') or as an absolute path.
 */
export function builtSpecgate(...distFiles: string[]): PeerRequirement {
  const files = [fromRoot('dist', 'cli', 'main.js'), ...distFiles.map((f) => (isAbsolute(f) ? f : fromRoot('dist', f)))];
  return requirePeer('compiled specgate (dist/)', files.every((f) => existsSync(f)), 'run `npm run build` first; `npm test` does');
}
