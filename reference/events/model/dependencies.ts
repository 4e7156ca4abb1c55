import { done, invalid, notFound, type Outcome } from './outcome.js';

interface ServiceNode {
  calls: readonly string[];
  /** Primary tag values the service runs under (e.g. `datacenter:us1.prod`). */
  primaryTags: readonly string[];
}

const US = 'datacenter:us1.prod';
const EU = 'datacenter:eu1.prod';

/**
 * The seeded APM environments: `prod` (ten services, two datacenters as primary tags) and
 * `staging` (three services).
 */
const ENVIRONMENTS: Readonly<Record<string, Readonly<Record<string, ServiceNode>>>> = {
  prod: {
    'web-store': { calls: ['auth-service', 'catalog-api', 'checkout-api'], primaryTags: [US, EU] },
    'checkout-api': { calls: ['payments-api', 'postgres', 'redis'], primaryTags: [US] },
    'catalog-api': { calls: ['postgres', 'redis', 'search-api'], primaryTags: [US, EU] },
    'auth-service': { calls: ['postgres'], primaryTags: [US, EU] },
    'payments-api': { calls: ['fraud-scorer', 'postgres'], primaryTags: [US] },
    'search-api': { calls: ['elasticsearch'], primaryTags: [US, EU] },
    'fraud-scorer': { calls: [], primaryTags: [US] },
    postgres: { calls: [], primaryTags: [US, EU] },
    redis: { calls: [], primaryTags: [US, EU] },
    elasticsearch: { calls: [], primaryTags: [US, EU] },
  },
  staging: {
    'web-store': { calls: ['checkout-api'], primaryTags: ['datacenter:us1.staging'] },
    'checkout-api': { calls: ['postgres'], primaryTags: ['datacenter:us1.staging'] },
    postgres: { calls: [], primaryTags: ['datacenter:us1.staging'] },
  },
};

/** The environment and service the cases use: a service with callers and dependencies. */
export const SEEDED_APM_ENV = 'prod';
export const SEEDED_APM_SERVICE = 'checkout-api';

/** A service's dependency map entry (G, "Service dependency map"). */
export type DependencyMap = Record<string, { calls: string[] }>;

/** One service's neighbours (G, "Service dependency (single)"). */
export interface ServiceDependency {
  name: string;
  calls: string[];
  called_by: string[];
}

/** The query both dependency endpoints take (G): env required, primary_tag, start/end seconds. */
export interface DependencyQuery {
  env: string;
  primaryTag?: string;
  start: number;
  end: number;
}

/**
 * Parses the query at `now`: `env` is required; `start` and `end` are integers of epoch
 * seconds (end defaults to now, start to one hour before end) with start not after end.
 */
export function parseDependencyQuery(get: (name: string) => string | null, now: number): Outcome<DependencyQuery> {
  const problems: string[] = [];
  const env = get('env');
  if (env === null || env === '') problems.push('env is required');
  const seconds = (name: string, fallback: number): number => {
    const v = get(name);
    if (v === null || v === '') return fallback;
    if (!/^\d+$/.test(v)) problems.push(`${name} must be an integer of epoch seconds`);
    return Number(v);
  };
  const end = seconds('end', Math.floor(now / 1000));
  const start = seconds('start', end - 3600);
  if (!problems.length && start > end) problems.push('start must not be after end');
  const primaryTag = get('primary_tag');
  if (problems.length || env === null) return invalid(...problems);
  return done({ env, start, end, ...(primaryTag ? { primaryTag } : {}) });
}

/** The services of an environment, restricted to one primary tag when given. */
function servicesOf(q: DependencyQuery): Map<string, ServiceNode> {
  const env = ENVIRONMENTS[q.env] ?? {};
  return new Map(Object.entries(env).filter(([, node]) => !q.primaryTag || node.primaryTags.includes(q.primaryTag)));
}

/**
 * The dependency map of an environment: every service with the services it calls (within the
 * primary tag, when one is given). An unknown environment has no services: `{}`. The window
 * (start/end) does not change the seeded map: its traffic is steady.
 */
export function dependencyMap(q: DependencyQuery): DependencyMap {
  const services = servicesOf(q);
  const map: DependencyMap = {};
  for (const [name, node] of services) map[name] = { calls: node.calls.filter((c) => services.has(c)) };
  return map;
}

/** One service's callers and callees; not-found when the environment has no such service. */
export function serviceDependency(q: DependencyQuery, service: string): Outcome<ServiceDependency> {
  const map = dependencyMap(q);
  const node = map[service];
  if (!node) return notFound(`service ${service} has no dependencies in env ${q.env}`);
  const calledBy = Object.entries(map)
    .filter(([, n]) => n.calls.includes(service))
    .map(([name]) => name)
    .sort();
  return done({ name: service, calls: [...node.calls], called_by: calledBy });
}
