import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN } from './cli-runs.js';

/** The oauth reference served by `specgate serve oauth --profile <file>`, in a process of its own. */
export interface ServedOAuth {
  /** The profile serve wrote: the suite's variables and its user-agent bridge. */
  profile: string;
  /** The secrets serve wrote beside it (`NAME='value'` lines), as an environment for the run. */
  env: Record<string, string>;
  /** Ends the reference (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

/** How long serve gets to say it is ready (ms): loading the CLI on a busy machine takes seconds. */
const READY_MS = 60_000;

/** Starts `specgate serve oauth` writing its profile to `profile` (its env file beside it) and waits for its ready line. */
export function serveOAuth(profile: string, cwd: string): Promise<ServedOAuth> {
  const child = spawn(process.execPath, [BIN, 'serve', 'oauth', '--profile', profile], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`specgate serve oauth was not ready in ${READY_MS} ms: ${out}`));
    }, READY_MS);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`specgate serve oauth exited before it was ready: ${out}`));
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!/^specgate: ready/m.test(out)) return;
      clearTimeout(timer);
      const env: Record<string, string> = {};
      const file = profile.replace(/\.ya?ml$/, '.env');
      for (const m of readFileSync(file, 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)='([^']*)'$/gm)) if (m[1] && m[2] !== undefined) env[m[1]] = m[2];
      resolve({ profile, env, stop });
    });
  });
}
