import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';
import { referenceStartOptions, startCtxReference } from '../../../reference/ctx-auth/server/reference-target.js';
import { suite } from '../../../suites/ctx-auth/index.js';

/**
 * "The server may itself be the authorization server or may be a separate service" (spec 000,
 * C, Authentication 6): a server whose metadata names a separate authorization server as its
 * issuer passes CTX-SRV-METADATA-ISSUER when that server's own metadata names the same issuer,
 * and fails it when the issuer publishes no such document.
 */

/** A resource server at its own origin whose metadata document is the authorization server's, as `change` makes it. */
function separated(change: (doc: Record<string, unknown>, own: string) => Record<string, unknown>): SuiteModule {
  return {
    ...suite,
    reference: {
      async start(start) {
        const as = await startCtxReference(referenceStartOptions(start));
        const doc = (await (await fetch(`${as.server.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
        let own = '';
        const server = createServer((req, res) => {
          const found = req.url === '/.well-known/oauth-authorization-server';
          res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify(found ? change(doc, own) : { error: 'not_found' }));
        });
        const listening = await listenOnLoopback(server);
        own = listening.url;
        return {
          description: `a resource server at ${listening.url} whose authorization server is the reference at ${as.server.issuer}`,
          vars: { ...as.vars, server_url: `${listening.url}/ctx` },
          stop: async () => {
            await listening.stop();
            await as.stop();
          },
        };
      },
    },
  };
}

async function issuerVerdict(module: SuiteModule): Promise<string | undefined> {
  const r = await run({ modules: [module], suites: ['ctx-auth'], targets: {}, sides: { 'ctx-auth': 'server' }, seed: 7, runs: 1, cases: ['metadata-issuer-answers-for-itself'] });
  return r.requirements.find((v) => v.id === 'CTX-SRV-METADATA-ISSUER')?.status;
}

describe('CTX-SRV-METADATA-ISSUER with a separate authorization server', () => {
  it('passes when the issuer is the separate service and its own metadata names it', async () => {
    expect(await issuerVerdict(separated((doc) => doc))).toBe('passed');
  });

  it('fails when the issuer is the resource server, which is not where the authorization server publishes', async () => {
    expect(await issuerVerdict(separated((doc, own) => ({ ...doc, issuer: `${own}/elsewhere` })))).toBe('failed');
  });
});
