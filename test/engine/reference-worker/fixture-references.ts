/**
 * References the worker-reference tests start in worker threads (compiled to dist/ by
 * `npm run build`, where a worker can load them): one that answers its clock's time over HTTP and
 * through its user agent, a document database, and ones that fail to start, cannot stop or hand back a function.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import type { ReferenceTarget } from '../../../src/engine/suite-module.js';

/** Answers `{"now": <its clock's now>}` to every request; its agent reports the time too, fails or ends its thread. */
export const clockReference: ReferenceTarget = {
  async start({ clock }) {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ now: clock.now() }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      description: `clock fixture at ${url}`,
      vars: { url, started_at: clock.now() },
      served: { listening: url },
      exec: { command: process.execPath, args: ['--version'] },
      agent: {
        kind: 'fixture-agent',
        async perform(action, params, signal) {
          if (action === 'now') return { now: clock.now(), echo: params['echo'] ?? null };
          if (action === 'refuse') throw new SpecgateError('SG_CONFIG', 'the fixture agent refuses', { why: 'asked to' });
          if (action === 'wait') {
            return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
          }
          if (action === 'fail-plain') throw Object.assign(new TypeError('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
          if (action === 'crash') setTimeout(() => process.exit(7), 0);
          return new Promise(() => undefined);
        },
      },
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
};

/** Refuses to start with a coded error of its own. */
export const refusingReference: ReferenceTarget = {
  start: () => Promise.reject(new SpecgateError('SG_CONFIG', 'the fixture refuses to start: give it a port')),
};

/** Fails to start with an uncoded error (a port taken, a file missing). */
export const brokenReference: ReferenceTarget = {
  start: async () => {
    throw new TypeError('listen EADDRINUSE 127.0.0.1:1');
  },
};

/** Hands back a function among its vars, which cannot cross threads. */
export const functionVarsReference: ReferenceTarget = {
  start: async () => ({ description: 'function vars', vars: { f: () => 1 }, stop: async () => {} }),
};

/** Starts, but never finishes stopping. */
export const hangingReference: ReferenceTarget = {
  start: async () => ({
    description: 'hangs on stop',
    vars: {},
    stop: () => new Promise<void>(() => setInterval(() => undefined, 1000)),
  }),
};

/** A document database that echoes a command, refuses `{refuse: 1}` as a database does, and counts its closes. */
export const documentsReference: ReferenceTarget = {
  async start() {
    let closed = 0;
    return {
      description: 'documents fixture',
      vars: {},
      documents: {
        description: 'echo store',
        async command(doc) {
          if (doc['refuse']) throw DatabaseAnswerError.refusedCommand({ errmsg: 'E11000 duplicate key', code: 11000, codeName: 'DuplicateKey' });
          if (doc['closed']) return { ok: 1, closed };
          return { ok: 1, echo: doc };
        },
        async close() {
          closed++;
        },
      },
      stop: async () => {},
    };
  },
};
