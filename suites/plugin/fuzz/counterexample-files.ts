import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError } from '../../../src/errors.js';

/** What is written for one finding; the case file is made from the name chosen (its ID follows the file name). */
export interface CounterexampleContent {
  /** The exact bytes the plugin was given when it broke the requirement (`plugin < file.bin` replays them by hand). */
  bin: Uint8Array;
  /** The request decoded, to read or to re-encode with the plugin codec. */
  json: string;
  /** The regression case, given the file's base name; none when the finding cannot be one. */
  yaml?: (base: string) => string;
}

/** Names tried before giving up: far more than any folder of counterexamples holds. */
const MAX_TRIES = 10_000;

/**
 * Writes one finding's files as `<stem>.bin`, `.json` and `.yaml` in `outDir`, or `<stem>-2.*`,
 * `<stem>-3.*`, ... when a file of that name is already there: an earlier run's files (a replay
 * writes the same stem) are never replaced. Files are created exclusively, so a run writing
 * beside this one at the same moment cannot be overwritten either. Returns the paths written.
 */
export function writeCounterexample(outDir: string, stem: string, content: CounterexampleContent): { base: string; files: string[] } {
  mkdirSync(outDir, { recursive: true });
  for (let n = 1; n <= MAX_TRIES; n++) {
    const base = n === 1 ? stem : `${stem}-${n}`;
    const parts: [string, string | Uint8Array][] = [
      [`${base}.bin`, content.bin],
      [`${base}.json`, content.json],
      ...(content.yaml ? [[`${base}.yaml`, content.yaml(base)] as [string, string]] : []),
    ];
    // every name of the set is free, whichever of them this finding writes
    if (['bin', 'json', 'yaml'].some((ext) => existsSync(join(outDir, `${base}.${ext}`)))) continue;
    const written: string[] = [];
    try {
      for (const [name, data] of parts) {
        const file = join(outDir, name);
        writeFileSync(file, data, { flag: 'wx' });
        written.push(file);
      }
      return { base, files: written };
    } catch (e) {
      // another run took this name between the check and the write: leave its file, drop ours
      for (const f of written) rmSync(f, { force: true });
      if (!(e instanceof Error && 'code' in e && e.code === 'EEXIST')) throw e;
    }
  }
  throw new SpecgateError('SG_CONFIG', `${outDir} already holds ${MAX_TRIES} counterexamples named ${stem}; give another --out folder`);
}
