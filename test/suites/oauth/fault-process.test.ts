import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { failedIds, launch, ROOT, runCli, type Launched } from './process-target.js';

/**
 * Planted-fault servers as their own processes, reached through a target profile: the clock
 * moves through the profile's hook and the user agent through the profile's scripted actions.
 */
const script = join(ROOT, 'dist/test/fixtures/oauth/faults/fault-server.js');
const built = requirePeer('compiled specgate (dist/)', existsSync(script) && existsSync(join(ROOT, 'dist/cli/main.js')), 'run `npm run build` first; `npm test` does');
declarePeer(built);

describe.skipIf(built.skip)('planted-fault servers through a profile', () => {
  const started: Launched[] = [];
  afterAll(() => started.forEach((s) => s.stop()));

  for (const [fault, requirement] of [
    ['port-ignored', 'OAUTH-REDIRECT-PORT'],
    ['raise-not-enforced', 'OAUTH-DEVICE-INTERVAL-RAISED'],
  ] as const) {
    it(`${fault} is caught by ${requirement} alone`, async () => {
      const srv = await launch(script, ['--fault', fault]);
      started.push(srv);
      const run = runCli(srv.profile);
      expect(run.status).toBe(1);
      expect(failedIds(run)).toEqual([requirement]);
      // the client-side cases need a client application, which this profile does not name
      const notJudged = run.report.suites.flatMap((s) => s.cases.filter((c) => c.outcome !== 'passed' && c.outcome !== 'failed'));
      expect(notJudged.filter((c) => !(c.outcome === 'skipped' && c.requirements.every((r) => r.startsWith('OAUTH-CLIENT-'))))).toEqual([]);
    }, 300_000);
  }
});
