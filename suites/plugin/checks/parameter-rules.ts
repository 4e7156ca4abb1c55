import fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { parameterPlan, parameterText } from '../../../generators/plugin/plugin-parameter.js';
import { RUNS_ARGS, type RunsArgs } from './arguments.js';
import { JudgedTally } from './answer-findings.js';
import { loadFixture, type FixtureName } from './fixtures.js';
import { givenParameters } from './given-parameters.js';
import { PLUGIN_RESPONSE_JUDGES } from './judged.js';
import { fixtureAnswer, fixtureLabel, reportEvidence, tallyAnswer, type JudgedAnswer } from './plugin-rules.js';
import { pluginFixtures, wants } from './support.js';

/** One input of the property: a stored fixture and the parameter it is sent with. */
interface ParameterInput {
  fixture: FixtureName;
  parameter: string | undefined;
  /** The parameter is specgate's own (generated), not one the target named. */
  generated: boolean;
}

/**
 * The inputs: each fixture with a generated parameter (generators/plugin/plugin-parameter.ts),
 * or, when the target names its parameters (var plugin_parameters), with those only.
 */
function inputs(fixtures: readonly FixtureName[], given: readonly (string | undefined)[] | undefined): fc.Arbitrary<ParameterInput> {
  const fixture = fc.constantFrom(...fixtures);
  if (given !== undefined) return fc.record({ fixture, parameter: fc.constantFrom(...given), generated: fc.constant(false) });
  return fc.record({ fixture, plan: parameterPlan }).map(({ fixture: f, plan }) => ({ fixture: f, parameter: parameterText(plan, loadFixture(f).file_to_generate), generated: true }));
}

/**
 * `plugin.parameterRules`: the response rules judged on the stored fixtures sent with a
 * parameter (spec A, CodeGeneratorRequest.parameter), so rules that only show with one (names
 * built from it, chunks, insertions it asks for) are judged on every run. The parameters are
 * generated under the case's seed and shrink with the fixture, unless the target names its own
 * (var plugin_parameters): then only those are sent, and the answers are the ones
 * `plugin.responseRules` already asked for (one shared run per fixture and parameter).
 *
 * A generated parameter is one the plugin was never told of. Refusing it with `error` is judged
 * as any answer that sets `error`; refusing it by exiting non-zero is set aside, not failed:
 * spec A keeps `error` for problems of the schema files (Errors 1) and binds no plugin to take
 * a parameter it does not know. A crash by a signal, no answer or an undecodable answer is
 * still judged.
 */
export const parameterRules = defineCheck<RunsArgs>({
  description: 'runs the plugin on the stored fixtures with generated parameters (or var plugin_parameters) and judges each answer by the response rules',
  args: RUNS_ARGS,
  judges: PLUGIN_RESPONSE_JUDGES,
  run: async (ctx, { runs }) => {
    const tally = new JudgedTally(ctx.requirements);
    const given = givenParameters(ctx.vars);
    const fixtures = pluginFixtures(ctx);
    const refused: string[] = [];
    let sent = 0;
    await ctx.property(inputs(fixtures, given), async (input) => {
      const answer: JudgedAnswer = await fixtureAnswer(ctx, input.fixture, input.parameter);
      sent++;
      if (input.generated && answer.exited !== undefined) {
        refused.push(`${fixtureLabel(input.fixture, input.parameter)}: ${answer.exited}`);
        return undefined;
      }
      tallyAnswer(tally, fixtureLabel(input.fixture, input.parameter), answer);
      return answer.found.find((f) => wants(ctx, f.requirement));
    }, { label: given === undefined ? 'plugin.pluginParameter' : 'vars.plugin_parameters', ...(runs === undefined ? {} : { runs }) });
    const setAside = refused.length ? `; the plugin refused ${refused.length} generated parameter(s) by a non-zero exit (${refused.slice(0, 3).join('; ')})` : '';
    reportEvidence(ctx, tally, `${sent} fixture answers with parameters${setAside}`, refused.length ? '; name the parameters it takes in vars.plugin_parameters' : '');
  },
});
