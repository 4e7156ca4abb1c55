import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';

/**
 * How output for an imported file is told apart from a file's own output (spec A,
 * CodeGeneratorRequest: code is generated only for the files in file_to_generate), judged by the
 * SETS of file names a plugin writes, so output for an import is caught under any name.
 *
 * The plugin is asked three ways about one set of files: for the imports alone, for the main
 * files and the imports together, and for the main files alone. Asked for the main files alone,
 * it may write only what asking for both writes beyond what the imports alone give (the main
 * files' own output), plus files it writes whatever it is asked (found in every answer compared,
 * such as a runtime file). When the imports alone give nothing beyond those, the three answers
 * cannot tell.
 *
 * A file the answer creates and then inserts into itself (an insertion target of the run: an
 * index or registry the plugin fills as it goes, spec A, Rules for File 3 and 6) belongs to
 * that response, not to any one file asked for: such a file written for the main files alone
 * is never counted as output for an import, whatever it is named.
 *
 * `plugin.fileToGenerate` (`specgate run`, two stored import pairs) and the fuzzer (each
 * generated request with imports, plus a control request of its own) judge by this one rule.
 */

/** The names of the files a response creates (insertions and nameless chunks name none of their own). */
export function createdNames(res: CodeGeneratorResponse | undefined): Set<string> {
  return new Set((res?.file ?? []).filter((f) => f.name && !f.insertion_point).map((f) => f.name ?? ''));
}

/**
 * The names of the files a response creates and then, later in the same response, inserts
 * into: its own insertion targets (spec A, Rules for File 3: the insertion goes into a file
 * created before it).
 */
export function insertionTargets(res: CodeGeneratorResponse | undefined): Set<string> {
  const created = new Set<string>();
  const targets = new Set<string>();
  for (const f of res?.file ?? []) {
    if (!f.name) continue;
    if (!f.insertion_point) created.add(f.name);
    else if (created.has(f.name)) targets.add(f.name);
  }
  return targets;
}

/** Files written whatever is asked: the names in every one of the answers. */
export function alwaysWritten(answers: readonly ReadonlySet<string>[]): Set<string> {
  const [first, ...rest] = answers;
  return new Set([...(first ?? [])].filter((n) => rest.every((s) => s.has(n))));
}

/** The created names of one question asked three ways. */
export interface ImportAnswers {
  /** Asked for the imported files alone. */
  forImports: ReadonlySet<string>;
  /** Asked for the main files and the imported files together. */
  forBoth: ReadonlySet<string>;
  /** Asked for the main files alone (the answer judged). */
  forMainAlone: ReadonlySet<string>;
  /** The files that answer creates and inserts into itself ({@link insertionTargets}): never output for an import. */
  forMainAloneTargets?: ReadonlySet<string>;
}

/** What the three answers tell: nothing, or the main files' own output and any extra files. */
export type ImportOutputVerdict =
  | { told: false }
  | {
      told: true;
      /** What asking for both writes beyond the imports alone: the main files' own output. */
      forMain: string[];
      /** Written for the main files alone, yet neither their own output nor written always: output for the imports. */
      extra: string[];
    };

/** Judges one question asked three ways against the files written whatever is asked. */
export function outputForImports(answers: ImportAnswers, always: ReadonlySet<string>): ImportOutputVerdict {
  if ([...answers.forImports].every((n) => always.has(n))) return { told: false };
  const forMain = [...answers.forBoth].filter((n) => !answers.forImports.has(n));
  const own = answers.forMainAloneTargets ?? new Set<string>();
  const extra = [...answers.forMainAlone].filter((n) => !always.has(n) && !forMain.includes(n) && !own.has(n));
  return { told: true, forMain, extra };
}
