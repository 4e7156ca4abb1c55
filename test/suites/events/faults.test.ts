import { describe, expect, it } from 'vitest';
import { loadSuites, run } from '../../../src/engine/run.js';
import { EVENTS_HANDLERS } from '../../../reference/events/server/handlers/index.js';
import { EVENTS_ROUTES, PLATFORM_PREFIX, type EventsArea, type EventsRoute } from '../../../reference/events/server/routes.js';
import type { EventsServerOptions } from '../../../reference/events/server/server.js';
import { suite } from '../../../suites/events/index.js';
import { FAULTS, type EventsFault } from '../../fixtures/events/faults/faults.js';
import { ROUTE_FAULTS } from '../../fixtures/events/faults/route-faults.js';
import { blockedRequirements, coveredMustRequirements, erroredCases, failedRequirements, faultBlocks, runEvents, serverCaseIds } from './run-events.js';

/**
 * Planted faults the cases cannot catch yet, each with what is missing. A fault listed here is
 * not run; once its case exists, take it off the list (the last test fails while a listed fault
 * is already caught, so the list cannot go stale unnoticed).
 */
const WAITING: Record<string, string> = {};

/** Loaded once: every run below takes the same server-side cases. */
const CASES = serverCaseIds();

/** The service a requirement belongs to, by its ID (server-side requirements are all one or the other). */
function requirementArea(id: string): EventsArea | undefined {
  if (id.startsWith('EVENTS-MON-')) return 'monitor';
  if (id.startsWith('EVENTS-PLAT-')) return 'platform';
  return undefined;
}

/** The service a path is served by: the platform below its prefix, the monitoring API everywhere else. */
function pathArea(path: string): EventsArea {
  return path === PLATFORM_PREFIX || path.startsWith(`${PLATFORM_PREFIX}/`) ? 'platform' : 'monitor';
}

const ROUTE_AREA = new Map(EVENTS_ROUTES.map((r) => [r.id, r.area]));

/**
 * The one service a fault changes and is judged on, found by asking its hooks which operations'
 * handlers they replace and which routes they add, change or drop; undefined when that is both
 * services, when the fault sets anything but those hooks, or when its requirement, alsoBreaks or blocks
 * names the other service (or everything).
 */
function faultArea(fault: EventsFault): EventsArea | undefined {
  const { override, routes, ...other } = fault.options;
  const areas = new Set<EventsArea | undefined>([fault.requirement, ...(fault.alsoBreaks ?? []), ...faultBlocks(fault)].map(requirementArea));
  if (override) {
    for (const [id, reference] of Object.entries(EVENTS_HANDLERS)) if (override(id, reference) !== reference) areas.add(ROUTE_AREA.get(id));
  }
  if (routes) {
    const before = new Map(EVENTS_ROUTES.map((r) => [r.id, JSON.stringify(r)]));
    const after: EventsRoute[] = routes(EVENTS_ROUTES.map((r) => ({ ...r })));
    for (const r of after) {
      if (before.get(r.id) === JSON.stringify(r)) continue;
      areas.add(r.area);
      areas.add(pathArea(r.path));
      const was = EVENTS_ROUTES.find((x) => x.id === r.id);
      if (was) areas.add(was.area);
    }
    for (const r of EVENTS_ROUTES) if (!after.some((a) => a.id === r.id)) areas.add(r.area);
  }
  const [only, ...more] = [...areas];
  return Object.keys(other).length === 0 && more.length === 0 ? only : undefined;
}

/** Both faults at once: each hook applied after the other's (they touch different operations and routes). */
function bothFaults(a: EventsServerOptions, b: EventsServerOptions): EventsServerOptions {
  const hooks = [a, b];
  return {
    routes: (routes) => hooks.reduce((rs, h) => (h.routes ? h.routes(rs) : rs), routes),
    override: (id, reference) => hooks.reduce((handler, h) => (h.override ? h.override(id, handler) : handler), reference),
  };
}

/**
 * Every run executes every server-side case. The cases of one service never call the other
 * (checked below on the reference), each service's handlers keep to their own store
 * (model.monitor, model.platform), and every fault changes one service only (faultArea), so a
 * monitoring-API fault and a platform fault can share one run: each is judged on every
 * requirement outside its partner's service, as if it ran alone. Faults left over (more of one
 * service than of the other, or of both services) run alone.
 */
const runnable = Object.keys(FAULTS).filter((name) => WAITING[name] === undefined);
const byArea = (area: EventsArea): string[] => runnable.filter((name) => { const f = FAULTS[name]; return f !== undefined && faultArea(f) === area; });
const monitorFaults = byArea('monitor');
const platformFaults = byArea('platform');
const partnerOf = new Map<string, string>();
monitorFaults.forEach((m, i) => {
  const p = platformFaults[i];
  if (p === undefined) return;
  partnerOf.set(m, p);
  partnerOf.set(p, m);
});

interface Verdicts {
  failed: string[];
  blocked: Record<string, string[]>;
  errored: string[];
}

/** One run per pair (or lone fault), started by whichever of its tests comes first. */
const runs = new Map<string, Promise<Verdicts>>();
function verdictsWith(name: string): Promise<Verdicts> {
  const partner = partnerOf.get(name);
  const names = [name, ...(partner === undefined ? [] : [partner])].sort();
  const key = names.join(' + ');
  const known = runs.get(key);
  if (known) return known;
  const [first = {}, second] = names.map((n) => FAULTS[n]?.options ?? {});
  const options = second ? bothFaults(first, second) : first;
  const started = runEvents({ options, cases: CASES }).then((r) => ({ failed: failedRequirements(r), blocked: blockedRequirements(r), errored: erroredCases(r) }));
  runs.set(key, started);
  return started;
}

/**
 * Every planted fault of the events services is caught by its requirement, and by nothing else
 * except the requirements its definition lists as broken by the same deviation (alsoBreaks);
 * what its definition says it blocks is reported blocked, not failed.
 */
describe('planted faults in the reference events services', () => {
  it('has server-side cases that each reach only the service their requirements belong to', async () => {
    const loaded = loadSuites([suite], ['events']).suites[0]?.cases ?? [];
    const areaOfCase = new Map(loaded.map((c) => [c.id, new Set(c.requirements.map(requirementArea))]));
    const crossing = new Set<string>();
    await run({
      modules: [suite], suites: ['events'], targets: {}, seed: 4242, cases: CASES, traceExchanges: true,
      sinks: [
        (e) => {
          if (e.type !== 'exchange' || e.exchange.kind !== 'http') return;
          const url = (e.exchange.request as { url?: unknown } | undefined)?.url;
          const area = typeof url === 'string' ? pathArea(new URL(url).pathname) : undefined;
          const own = areaOfCase.get(e.caseId);
          if (!own || own.size !== 1 || !own.has(area)) crossing.add(`${e.caseId}: ${e.exchange.summary}`);
        },
      ],
    });
    expect([...crossing]).toEqual([]);
  });

  for (const [name, fault] of Object.entries(FAULTS)) {
    const title = `${name}: ${fault.description} -> ${fault.requirement}`;
    if (WAITING[name] !== undefined) {
      it.todo(`${title} (waiting: ${WAITING[name]})`);
      continue;
    }
    it(title, async () => {
      const r = await verdictsWith(name);
      const partner = partnerOf.get(name);
      const partnerArea = partner === undefined ? undefined : faultArea(FAULTS[partner] ?? fault);
      // The partner's service is the partner's to judge; everything else is this fault's.
      const failed = r.failed.filter((id) => partnerArea === undefined || requirementArea(id) !== partnerArea);
      expect(failed).toContain(fault.requirement);
      expect(faultBlocks(fault).filter((id) => r.blocked[id] === undefined)).toEqual([]);
      if (fault.alsoBreaks?.includes('*')) return;
      expect(failed.filter((id) => id !== fault.requirement && !fault.alsoBreaks?.includes(id))).toEqual([]);
      expect(r.errored).toEqual([]);
    });
  }

  // a fault waiting for its case counts as planted: it is there, and listed above as not yet caught
  it('has a fault for every MUST requirement of the server side that a case covers', () => {
    const planted = new Set([...Object.values(FAULTS), ...Object.values(ROUTE_FAULTS)].map((f) => f.requirement));
    expect(coveredMustRequirements().filter((id) => !planted.has(id))).toEqual([]);
  });

  it('waits only for faults that exist and are still not caught', async () => {
    expect(Object.keys(WAITING).filter((name) => !FAULTS[name])).toEqual([]);
    const caught: string[] = [];
    for (const name of Object.keys(WAITING)) {
      const fault = FAULTS[name];
      if (fault && failedRequirements(await runEvents({ options: fault.options, cases: CASES })).includes(fault.requirement)) caught.push(name);
    }
    expect(caught).toEqual([]);
  });
});

/**
 * Every platform operation, not served, is caught by its own op-* case, and by no other op-*
 * case (each of those uses its own operation only). The other cases that use the operation
 * would fail too; they are left out here.
 */
describe('every platform operation, not served, is caught by its own requirement', () => {
  const opCases = CASES.filter((id) => id.startsWith('op-'));

  it('has one op-* case per platform operation', () => {
    expect(opCases).toHaveLength(Object.keys(ROUTE_FAULTS).length);
  });

  for (const [name, fault] of Object.entries(ROUTE_FAULTS)) {
    it(`${name} -> ${fault.requirement}`, async () => {
      const r = await runEvents({ options: fault.options, cases: opCases });
      expect(failedRequirements(r)).toEqual([fault.requirement]);
      expect(erroredCases(r)).toEqual([]);
    });
  }
});
