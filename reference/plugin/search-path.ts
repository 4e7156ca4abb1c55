import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Finds an executable the way a shell does: the first regular file named `exe` that may be run,
 * in the folders of `env.PATH` in order. Gives undefined when there is none.
 */
export function findOnPath(exe: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, exe);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}
