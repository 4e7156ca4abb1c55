import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { CLIENT_REQUIREMENT_IDS } from '../../../suites/ctx-auth/checks/client-judges.js';
import { SUITE_MODULE, clientStatuses, nodeCommand, runCtxClientCases, type CtxCliRun } from '../../fixtures/ctx-auth/clients/cli.js';
import { CTX_CLIENT_FAULTS } from '../../fixtures/ctx-auth/clients/faults/catalog.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * The planted-fault clients of the ctx-auth suite through the CLI: each is the reference client
 * with one deviation (test/fixtures/ctx-auth/clients/faults), run once through
 * `specgate run --suite ctx-auth --ctx-client "<fault client>"` with the client cases only, and
 * fails exactly the requirement it breaks, plus those its catalog entry says the same deviation
 * breaks by their own wording. Requirements a fault keeps the client from showing are left
 * unjudged (their cases error), never failed. Needs `npm run build`.
 */
const FAULT_CLIENT = fromRoot('dist', 'test', 'fixtures', 'ctx-auth', 'clients', 'faults', 'fault-client.js');
const built = builtSpecgate(SUITE_MODULE, FAULT_CLIENT);
declarePeer(built);

/** Each run starts the client six times (one per scenario): two runs at a time. */
const PARALLEL = 2;

const failedOf = (run: CtxCliRun): string[] =>
  Object.entries(clientStatuses(run.report))
    .filter(([, status]) => status === 'failed')
    .map(([id]) => id)
    .sort();

/** Client requirements reported blocked, each with the requirements that blocked it. */
const blockedOf = (run: CtxCliRun): Record<string, string[]> =>
  Object.fromEntries(
    run.report.requirements
      .filter((v) => v.id.startsWith('CTX-CLI-') && v.status === 'blocked')
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((v) => [v.id, [...((v as { blockedBy?: string[] }).blockedBy ?? [])].sort()]),
  );

describe.skipIf(built.skip)('planted-fault clients of the ctx-auth suite, through the CLI', () => {
  const runs = new Map<string, CtxCliRun>();

  beforeAll(async () => {
    await pool(Object.keys(CTX_CLIENT_FAULTS), PARALLEL, async (name) => {
      runs.set(name, await runCtxClientCases({ client: nodeCommand(FAULT_CLIENT, '--fault', name) }));
    });
  }, 900_000);

  for (const [name, fault] of Object.entries(CTX_CLIENT_FAULTS)) {
    it(`${name} (${fault.description}) is caught by ${fault.requirement}`, () => {
      const run = runs.get(name);
      expect(run, 'the run of this fault').toBeDefined();
      if (!run) return;
      expect(failedOf(run)).toEqual([fault.requirement, ...(fault.alsoBreaks?.requirements ?? [])].sort());
      expect(blockedOf(run)).toEqual(Object.fromEntries((fault.blocks?.requirements ?? []).sort().map((id) => [id, [fault.requirement]])));
      const verdict = run.report.requirements.find((v) => v.id === fault.requirement);
      expect(verdict?.failures[0]?.message).toBeTruthy();
      // a failed MUST makes the run exit 1
      if (verdict?.level === 'MUST') expect(run.exitCode).toBe(1);
    });
  }

  it('leaves CTX-CLI-401-STARTS-FLOW unjudged when the server refuses a step of the flow the client started', () => {
    // the registration of a redirect URI that is not local is refused before any authorization
    const run = runs.get('redirect-uri-not-local');
    const verdict = run?.report.requirements.find((v) => v.id === 'CTX-CLI-401-STARTS-FLOW');
    expect(verdict?.status).toBe('untested');
    const c = run?.report.suites.flatMap((s) => s.cases).find((x) => x.id === 'client-401-starts-flow');
    expect(c?.reason).toMatch(/the client started the flow \(#2 GET \/\.well-known\/oauth-authorization-server -> 200, #3 POST \/register -> 400\) and stopped when request #3 POST \/register was refused \(400\)/);
  });
});

describe('the planted-fault clients of the ctx-auth suite', () => {
  it('cover every client requirement the catalog judges', () => {
    const catalog = parse(readFileSync(fromRoot('suites', 'ctx-auth', 'requirements.yaml'), 'utf8')) as { id: string; side?: string; excluded?: string }[];
    const client = catalog.filter((r) => r.side === 'client' && !r.excluded).map((r) => r.id);
    expect([...client].sort()).toEqual([...CLIENT_REQUIREMENT_IDS].sort());
    const planted = new Set(Object.values(CTX_CLIENT_FAULTS).map((f) => f.requirement));
    expect(client.filter((id) => !planted.has(id))).toEqual([]);
  });

  it('declare as also broken only other client requirements, each time with the reason', () => {
    for (const fault of Object.values(CTX_CLIENT_FAULTS)) {
      for (const id of fault.alsoBreaks?.requirements ?? []) {
        expect(CLIENT_REQUIREMENT_IDS).toContain(id);
        expect(id).not.toBe(fault.requirement);
      }
      if (fault.alsoBreaks) expect(fault.alsoBreaks.why).toBeTruthy();
    }
  });
});
