import type { LoadedSuite } from '../../engine/model.js';

/** One user-agent action the cases perform, as a profile must provide it. */
export interface AgentActionUse {
  name: string;
  /** The parameters the cases pass (`with:` keys), which the action's steps see as variables. */
  params: string[];
  /** The keys of the action's result the cases read (`capture: { x: $.key }`). */
  results: string[];
  /** Cases that perform it. */
  cases: string[];
}

/**
 * The user-agent actions a suite's cases perform, derived from their `agent:` steps, in the
 * order they first appear. Typed checks may perform others in their code, out of sight here.
 */
export function agentActionUses(suite: LoadedSuite): AgentActionUse[] {
  const byName = new Map<string, { params: Set<string>; results: Set<string>; cases: Set<string> }>();
  for (const c of suite.cases) {
    for (const step of c.steps) {
      if (!('agent' in step)) continue;
      const use = byName.get(step.agent) ?? { params: new Set<string>(), results: new Set<string>(), cases: new Set<string>() };
      byName.set(step.agent, use);
      use.cases.add(c.id);
      for (const p of Object.keys(step.with ?? {})) use.params.add(p);
      for (const path of Object.values(step.capture ?? {})) {
        const key = /^\$\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(path)?.[1];
        if (key !== undefined) use.results.add(key);
      }
    }
  }
  return [...byName].map(([name, u]) => ({ name, params: [...u.params], results: [...u.results], cases: [...u.cases] }));
}

/** Headers every HTTP client sends or that carry credentials: a target never renames them. */
const STANDARD_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'authorization', 'content-type', 'content-length', 'cookie', 'host', 'origin', 'referer', 'user-agent', 'cache-control', 'x-forwarded-for']);

/**
 * Header names the suite's requests send beyond the standard ones: the spec's neutral names a
 * target may spell its own way (a profile's `headers:` maps them).
 */
export function specHeaderNames(suite: LoadedSuite): string[] {
  const names = new Map<string, string>();
  const add = (name: string): void => {
    const key = name.toLowerCase();
    if (!STANDARD_HEADERS.has(key) && !/^(access-control-|sec-|if-)/.test(key) && !names.has(key)) names.set(key, name);
  };
  for (const c of suite.cases) for (const step of c.steps) if ('request' in step) for (const h of Object.keys(step.request.headers ?? {})) add(h);
  for (const op of suite.api?.operations ?? []) for (const h of Object.keys(op.requiredHeaders)) add(h);
  if (suite.api?.auth) add(suite.api.auth.header);
  return [...names.values()];
}
