import fc from 'fast-check';
import { outputName, REFERENCE_POINT } from '../../reference/plugin/generator.js';

/**
 * Generator parameters (CodeGeneratorRequest.parameter, spec A: "the generator parameter passed
 * on the command line") in the form a compiler writes them: the `--NAME_out=PARAM:DIR` part and
 * each `--NAME_opt=PARAM`, joined with "," (PLUGIN-COMPILER-PARAMETER). What an item means is up
 * to each plugin; these use the items the reference plugin takes (reference/plugin/generator.ts),
 * so a run against it reaches the behaviour a parameter switches on: output names built from a
 * suffix (Rules for File 1), nameless chunks (rule 2) and an insertion into its own output
 * (rules 3-4).
 */

/** What one parameter asks for, before it is written out for the files of a request. */
export interface ParameterPlan {
  /** `suffix=EXT`: the output name is the schema file's name without `.proto`, plus EXT. */
  suffix: string;
  /** `chunk_lines=N`: each output is split into nameless chunks of N lines. */
  chunkLines?: number;
  /** `insert=FILE@POINT`: one line inserted at the marked point of the first file's own output. */
  insert: boolean;
}

/** Suffixes that make valid names: no separator, no item separator, never a `.` or `..` component. */
const suffix: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('.gen.txt', '_pb.txt', '.out'),
  fc.stringMatching(/^[._-][a-z0-9_]{1,8}(\.[a-z]{1,4})?$/),
);

/**
 * Parameter plans. Every plan sets `suffix`, so every generated parameter changes the names a
 * plugin that takes it writes; the other items are optional and shrink away first.
 */
export const parameterPlan: fc.Arbitrary<ParameterPlan> = fc
  .record({ suffix, chunkLines: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }), insert: fc.boolean() })
  .map(({ suffix: s, chunkLines, insert }) => (chunkLines === undefined ? { suffix: s, insert } : { suffix: s, chunkLines, insert }));

/**
 * The parameter text of `plan` for a request generating `fileToGenerate`: its items joined with
 * ",". The insertion names the first file's output (the file the same response creates first),
 * so the plugin, run as the only generator, inserts only into a file it has created.
 */
export function parameterText(plan: ParameterPlan, fileToGenerate: readonly string[]): string {
  const items = [`suffix=${plan.suffix}`];
  if (plan.chunkLines !== undefined) items.push(`chunk_lines=${plan.chunkLines}`);
  const first = fileToGenerate[0];
  if (plan.insert && first !== undefined) items.push(`insert=${outputName(first, plan.suffix)}@${REFERENCE_POINT}`);
  return items.join(',');
}

/** Generated parameters for a request generating `fileToGenerate` (see {@link parameterText}). */
export function pluginParameter(fileToGenerate: readonly string[]): fc.Arbitrary<string> {
  return parameterPlan.map((plan) => parameterText(plan, fileToGenerate));
}
