import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckResponse } from '../../../src/engine/suite-module.js';
import { field, nowMs, ok, seconds } from './support.js';

/** The strings of an array, sorted (undefined when it is not an array of strings). */
function names(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...(v as string[])].sort() : undefined;
}

const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * `events.dependencies`: GET /api/v1/service_dependencies/{service}?env= answers the service's
 * immediate neighbours as the dependency map of the same environment draws them (spec 002 G,
 * "Service dependency (single)"): `calls` holds the services its map entry calls, and
 * `called_by` every service whose map entry calls it (the case's request step judges `name` and
 * the types). Both answers are read with the same query, so they describe the same window of
 * traffic. With `window`, both are asked for the last hour given explicitly (`start`, `end` in
 * epoch seconds), and each must answer 2xx: the parameters are the endpoint's (G, Endpoints).
 */
export const dependencies = defineCheck<{ env: string; service: string; window?: boolean }>({
  description: "one service's dependencies (calls, called_by) agree with the dependency map of its environment",
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['env', 'service'],
    properties: { env: { type: 'string', minLength: 1 }, service: { type: 'string', minLength: 1 }, window: { type: 'boolean' } },
  },
  judges: 'case',
  async run(ctx, args) {
    const fail = (message: string, res: CheckResponse, more: { expected?: unknown; actual?: unknown } = {}): void => ctx.fail({ message, ...more, exchange: res.exchange });
    if (args.window) {
      // the last hour on the target's clock, as integers of epoch seconds
      const end = seconds(nowMs(ctx));
      const query = { env: args.env, start: end - 3600, end };
      const mapped = await ctx.request({ operation: 'serviceDependencies', query });
      if (!ok(mapped)) fail(`GET /api/v1/service_dependencies?env=${args.env}&start=${query.start}&end=${end} answered ${mapped.status}; start and end are parameters of the endpoint`, mapped, { actual: mapped.status });
      const single = await ctx.request({ operation: 'serviceDependency', params: { service: args.service }, query });
      if (!ok(single)) fail(`GET /api/v1/service_dependencies/${args.service}?env=${args.env}&start=${query.start}&end=${end} answered ${single.status}; start and end are parameters of the endpoint`, single, { actual: single.status });
      return;
    }
    const mapRes = await ctx.request({ operation: 'serviceDependencies', query: { env: args.env } });
    const map = mapRes.body;
    // no map, or one without lists of calls, is the map's own failure (its case judges it): nothing to compare with here
    if (!ok(mapRes) || !map || typeof map !== 'object' || Array.isArray(map)) return;
    const calls = new Map(Object.entries(map as Record<string, unknown>).map(([s, e]) => [s, names(field(e, 'calls'))] as const));
    if ([...calls.values()].some((c) => c === undefined)) return;
    const oneRes = await ctx.request({ operation: 'serviceDependency', params: { service: args.service }, query: { env: args.env } });
    if (!ok(oneRes)) return fail(`GET /api/v1/service_dependencies/${args.service}?env=${args.env} answered ${oneRes.status}`, oneRes);
    const own = calls.get(args.service);
    if (!own) return fail(`the dependency map of ${args.env} has no entry for ${args.service}, so its neighbours cannot be compared`, mapRes);
    const wanted = { calls: own, called_by: [...calls].filter(([, c]) => c?.includes(args.service)).map(([s]) => s).sort() };
    for (const key of ['calls', 'called_by'] as const) {
      const got = names(field(oneRes.body, key));
      const expected = wanted[key];
      if (!got) fail(`${key} is not an array of strings`, oneRes, { actual: field(oneRes.body, key) });
      else if (!same(got, expected)) fail(`${key} of ${args.service} is [${got.join(', ')}]; the dependency map of ${args.env} gives [${expected.join(', ')}]`, oneRes, { expected, actual: got });
    }
  },
});
