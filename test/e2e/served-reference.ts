/**
 * `specgate serve <suite>` as its own process, the way a person starts it: its printed lines
 * (`  name: value`) read back as variables once it says it is ready, and a stop that ends it
 * with SIGTERM and waits for its exit code.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN } from './cli.js';

export interface ServedReference {
  /** Everything it printed up to its ready line. */
  output: string;
  /** The `  name: value` lines it printed, as text. */
  printed: Record<string, string>;
  /** Ends it (SIGTERM) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

export function serveReference(args: string[], cwd: string, timeoutMs = 60_000): Promise<ServedReference> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`specgate serve ${args.join(' ')} was not ready in ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`specgate serve ${args.join(' ')} exited (${String(code)}) before it was ready: ${out}${err}`));
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!/^specgate: ready/m.test(out)) return;
      clearTimeout(timer);
      const printed: Record<string, string> = {};
      for (const m of out.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_]*): (.*)$/gm)) if (m[1] !== undefined && m[2] !== undefined) printed[m[1]] = m[2];
      resolve({ output: out, printed, stop });
    });
  });
}

/** The port a reference served with `--public-url` listens on (its `  listening: ... (answering as ...)` line). */
export function listeningPort(s: Pick<ServedReference, 'output'>): number {
  const m = /^ {2}listening: http:\/\/127\.0\.0\.1:(\d+) \(answering as /m.exec(s.output);
  if (!m?.[1]) throw new Error(`serve printed no listening address: ${s.output}`);
  return Number(m[1]);
}

/** The `NAME='value'` lines of the env file `serve --profile` writes, as an environment. */
export function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of readFileSync(file, 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)='([^']*)'$/gm)) if (m[1] && m[2] !== undefined) env[m[1]] = m[2];
  return env;
}
