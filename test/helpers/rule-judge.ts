/**
 * Judging one passive rule of a suite on a small recording a test builds (HAR entries written to
 * a temp file and read back as `--target har:` reads them), and the outcome of each requirement
 * in a form tests compare in one assertion.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ApiTable } from '../../src/engine/api/table.js';
import { matchRecording } from '../../src/engine/passive/match-recording.js';
import { passiveView, type PassiveRule, type PassiveVerdict } from '../../src/engine/passive/passive-rules.js';
import { loadHar } from '../../src/targets/har/load-har.js';
import { harEntry, harFile, type EntryInput } from '../targets/har/har-builder.js';

/** The verdicts of one rule on one recording, by requirement. */
export type RuleVerdicts = Record<string, PassiveVerdict>;

/**
 * A function judging rule `name` of `rules` on the entries given; `stamp` gives an entry its time
 * fields from its place (the entry's own fields win where it has them). The temp folder goes when
 * the test file ends.
 */
export function ruleJudge<E extends EntryInput>(
  prefix: string,
  table: ApiTable,
  rules: Readonly<Record<string, PassiveRule>>,
  stamp: (entry: E, index: number) => EntryInput = () => ({}),
): (name: string, entries: E[]) => RuleVerdicts {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return (name, entries) => {
    const file = join(dir, `r${n++}.har`);
    writeFileSync(file, JSON.stringify(harFile(entries.map((e, i) => harEntry({ ...e, ...stamp(e, i) })))));
    const recording = loadHar(file);
    const rule = rules[name];
    if (!rule) throw new Error(`no passive rule ${name}`);
    return Object.fromEntries(rule.judge(passiveView(table, recording, matchRecording(table, recording))).map((v) => [v.requirement, v]));
  };
}

/** A requirement's outcome: `pass` (with `counted`, `pass <observations>`), `fail <entries>`, `untested`, or `absent`. */
export function outcome(v: PassiveVerdict | undefined, counted = false): string {
  if (!v) return 'absent';
  if (v.findings.length) return `fail ${v.findings.map((f) => f.exchange.recorded.index).join(',')}`;
  if (v.observations > 0) return counted ? `pass ${v.observations}` : 'pass';
  return 'untested';
}

/** The outcome of every requirement judged (of `only`, when given). */
export function outcomes(vs: RuleVerdicts, only?: readonly string[], counted = false): Record<string, string> {
  return Object.fromEntries(Object.entries(vs).filter(([k]) => !only || only.includes(k)).map(([k, v]) => [k, outcome(v, counted)]));
}

/** The messages of a requirement's findings. */
export const messages = (v: PassiveVerdict | undefined): string[] => (v?.findings ?? []).map((f) => f.message);
