import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as imported from 'undici';
import { undici } from '../../src/targets/undici-lazy.js';
import { tempDir } from '../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../helpers/peer.js';

const built = builtSpecgate('src/targets/http-client.js');
declarePeer(built);
const tmp = tempDir('specgate-undici-lazy-');
afterAll(() => tmp.remove());

describe('undici, loaded at its first use', () => {
  it('is the package an import gets: its error classes are the same ones', () => {
    const lib = undici();
    expect(lib).toBe(undici());
    expect(lib.Agent).toBe(imported.Agent);
    expect(new lib.errors.RequestAbortedError()).toBeInstanceOf(imported.errors.RequestAbortedError);
  });
});

describe.skipIf(built.skip)('undici loaded at the first request', () => {
  it('is not counted against that request\'s deadline', () => {
    // loading undici is made to take 800 ms; the first request's deadline is 300 ms
    const hook = join(tmp.dir, 'slow-undici.cjs');
    writeFileSync(hook, `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'undici' && !globalThis.undiciSlowed) {
    globalThis.undiciSlowed = true;
    const until = Date.now() + 800;
    while (Date.now() < until);
  }
  return load.call(this, request, ...rest);
};
`);
    const module = pathToFileURL(join(process.cwd(), 'dist/src/targets/http-client.js')).href;
    const script = join(tmp.dir, 'first-request.mjs');
    writeFileSync(script, `import { createServer } from 'node:http';
const { createHttpClient } = await import(${JSON.stringify(module)});
const server = createServer((req, res) => res.end('{"ok":true}'));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const client = createHttpClient({ timeoutMs: 300, maxBodyBytes: 1000 });
const url = 'http://127.0.0.1:' + server.address().port + '/';
const said = await client.send({ method: 'GET', url, headers: {} }).then((r) => String(r.status), (e) => e.code + ': ' + e.message);
await client.close();
server.close();
process.stdout.write(said + (globalThis.undiciSlowed ? ' (slowed)' : ' (not slowed)'));
`);
    const r = spawnSync(process.execPath, ['--require', hook, script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.stdout, r.stderr, r.status]).toEqual(['200 (slowed)', '', 0]);
  });
});
