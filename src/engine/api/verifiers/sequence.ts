import { SpecgateError } from '../../../errors.js';
import { defineCheck } from '../../checks/contract.js';
import { apiOf } from './common.js';

interface SequenceArgs {
  resource: string;
  /** A suite's registered transitions (SuiteModule `apiModels`) added to the generic ones. */
  transitions?: string;
  runs?: number;
  maxCommands?: number;
  requirement?: string;
  /** Rule broken -> requirement it is attributed to (readBack, success, list, gone, transition, or a transition's own rule name). */
  requirements?: Record<string, string>;
}

/**
 * `api.sequence`: generated command sequences over a resource (create, get, list, update,
 * delete, and the suite's own transitions) run against the target and the reference model side
 * by side; every status and representation must agree. A failing sequence is shrunk to the
 * shortest one that still fails and reported with seed, path and replay command.
 */
export const sequence = defineCheck<SequenceArgs>({
  description: 'generated create/get/list/update/delete sequences agree with the resource model (shrunk on failure)',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['resource'],
    properties: {
      resource: { type: 'string' },
      transitions: { type: 'string' },
      runs: { type: 'integer', minimum: 1 },
      maxCommands: { type: 'integer', minimum: 1, maximum: 50 },
      requirement: { type: 'string' },
      requirements: {
        type: 'object',
        description: 'the requirement each kind of broken rule is attributed to: readBack, success (an operation on a live item not answered with success), list, gone, transition, or a rule a suite transition names; others go to requirement (or the case)',
        additionalProperties: { type: 'string' },
      },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    // loaded when a sequence runs: listing and validating suites do not load the generators
    const { runSequence, sequenceArbitrary, transitionsFor } = await import('../sequences.js');
    const api = apiOf(ctx);
    const resource = api.table.resources[args.resource];
    if (!resource) throw new SpecgateError('SG_SUITE_UNKNOWN', `no resource "${args.resource}" in ${api.table.file}`);
    const transitions = transitionsFor(api, args.resource, args.transitions);
    const arb = sequenceArbitrary(api.table, resource, transitions, args.maxCommands ?? 10);
    await ctx.property(
      arb,
      async (cmds) => {
        const found = await runSequence(ctx, api.table, resource, transitions, cmds);
        if (!found) return undefined;
        const { rule, ...failure } = found;
        const requirement = args.requirements?.[rule] ?? args.requirement;
        return { ...failure, ...(requirement ? { requirement } : {}) };
      },
      { ...(args.runs ? { runs: args.runs } : {}), label: `api.sequence ${args.resource}` },
    );
  },
});
