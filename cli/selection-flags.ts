/**
 * `--part` and `--requirement` for the commands that show or prepare a run without running it
 * (`list`, `init`): the same selection `run` makes (src/engine/selection.ts), checked the same
 * way, so a preview or a profile is of exactly the cases the run will judge.
 */
import { SpecgateErrorList } from '../src/errors.js';
import type { LoadedSuite, Selection } from '../src/engine/model.js';
import { resolveSelection, selectionProblems, type SelectionChoice } from '../src/engine/selection.js';
import { parseParts } from './part-choice.js';

/** The selection flags as commander gives them. */
export interface SelectionFlags {
  /** `--part`: a part for every suite, or `suite=part`. */
  part?: string[];
  /** `--requirement`: IDs or globs, `!` to leave out. */
  requirement?: string[];
}

/** The choice the flags make over these suites (what `run` takes as `parts` and `requirements`). */
export function selectionChoice(flags: SelectionFlags, suites: readonly string[]): SelectionChoice {
  return {
    ...(flags.part?.length ? { parts: parseParts(flags.part, suites) } : {}),
    ...(flags.requirement?.length ? { requirements: flags.requirement } : {}),
  };
}

/**
 * Each loaded suite's selection (absent: the flags select every requirement of it).
 * @throws SpecgateErrorList `SG_USAGE` for an unknown part or a pattern that matches nothing.
 */
export function selectionsOf(suites: readonly LoadedSuite[], flags: SelectionFlags): Map<string, Selection> {
  const choice = selectionChoice(flags, suites.map((s) => s.name));
  const problems = selectionProblems(suites, choice);
  if (problems.length) throw new SpecgateErrorList(problems);
  const out = new Map<string, Selection>();
  for (const s of suites) {
    const selection = resolveSelection(s, choice);
    if (selection) out.set(s.name, selection);
  }
  return out;
}
