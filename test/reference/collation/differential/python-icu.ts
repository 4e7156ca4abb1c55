/**
 * ICU through PyICU (Debian's python3-icu, on the system ICU) as a second opinion on collation
 * order: one long-lived `/usr/bin/python3 test/fixtures/collation/pyicu-sort.py` per test file,
 * spoken to in JSON lines, one request at a time.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fromRoot } from '../../../../src/paths.js';
import { requirePeer, type PeerRequirement } from '../../../helpers/peer.js';

/** Debian's python3-icu lives in the system Python; a Python on PATH (pyenv, venv) may lack it. */
export const SYSTEM_PYTHON = '/usr/bin/python3';
const SCRIPT = fromRoot('test', 'fixtures', 'collation', 'pyicu-sort.py');

function pyicuVersion(): string | undefined {
  const r = spawnSync(SYSTEM_PYTHON, ['-c', 'import icu; print(icu.ICU_VERSION, icu.UNICODE_VERSION)'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** "72.1 15.0": the ICU and Unicode versions PyICU runs on, or undefined when it is missing. */
export const PYICU_VERSION = pyicuVersion();

export const pyicuPeer: PeerRequirement = requirePeer('python3-icu (PyICU for /usr/bin/python3)', PYICU_VERSION !== undefined, 'apt-get install python3-icu');

/** How the bridge opens a collator: the whole keyword locale, or the bare locale plus setAttribute calls. */
export type OpenedBy = 'keywords' | 'attributes';

export interface PyIcu {
  /** compare(a, b) signs (-1, 0, 1) for each pair. */
  signs(locale: string, pairs: readonly (readonly [string, string])[], how?: OpenedBy): Promise<number[]>;
  sort(locale: string, strings: readonly string[], how?: OpenedBy): Promise<string[]>;
  /** The collator's attribute values as ICU reports them (UColAttributeValue numbers, and the variable top). */
  attributes(locale: string, how?: OpenedBy): Promise<Record<string, number>>;
  close(): Promise<void>;
}

type Answer = { sorted?: string[]; signs?: number[]; attributes?: Record<string, number>; error?: string };

export function startPyIcu(): PyIcu {
  const child: ChildProcessWithoutNullStreams = spawn(SYSTEM_PYTHON, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void }[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const fail = (why: string): void => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${why}${stderr ? `: ${stderr}` : ''}`));
  };
  child.on('exit', (code) => fail(`pyicu-sort.py ended (exit ${code})`));
  child.on('error', (e) => fail(`pyicu-sort.py could not start: ${e.message}`));
  createInterface({ input: child.stdout }).on('line', (line) => {
    waiting.shift()?.resolve(JSON.parse(line) as Answer);
  });

  const ask = (request: Record<string, unknown>): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      waiting.push({ resolve, reject });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    }).then((a) => {
      if (a.error !== undefined) throw new Error(`PyICU: ${a.error} (locale ${String(request['locale'])})`);
      return a;
    });

  return {
    async signs(locale, pairs, how = 'keywords') {
      return (await ask({ locale, how, pairs })).signs ?? [];
    },
    async sort(locale, strings, how = 'keywords') {
      return (await ask({ locale, how, sort: strings })).sorted ?? [];
    },
    async attributes(locale, how = 'keywords') {
      return (await ask({ locale, how, attributes: true })).attributes ?? {};
    },
    close() {
      return new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      });
    },
  };
}
