import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecgateError } from './errors.js';

let cached: string | undefined;

/**
 * The folder holding specgate's package.json, found upward from this file, so that the same
 * code works from `src/` (vitest) and from `dist/src/` (the compiled CLI).
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) {
      cached = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new SpecgateError('SG_INTERNAL', 'specgate cannot find its package root (package.json next to schemas/): run it from an intact install, not from a copied dist/ folder');
    dir = up;
  }
}

export function fromRoot(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}
