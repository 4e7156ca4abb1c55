import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRequest } from '../../../reference/plugin/codec.js';

/**
 * Writes a counterexample request twice: the exact bytes the plugin was given
 * (`fuzz-plugin-<seed>.bin`, to pipe into the plugin by hand: `plugin < file.bin`) and the same
 * request decoded (`fuzz-plugin-<seed>.json`, to read, or to re-encode with the plugin codec).
 */
export function writeCounterexample(outDir: string, seed: number, bytes: Uint8Array): string[] {
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `fuzz-plugin-${seed}`);
  writeFileSync(`${base}.bin`, bytes);
  writeFileSync(`${base}.json`, `${JSON.stringify(decodeRequest(bytes), null, 2)}\n`);
  return [`${base}.bin`, `${base}.json`];
}
