import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { it, expect } from 'vitest';
import { createHttpClient } from '../../src/targets/http-client.js';

it('bench', async () => {
  const body = JSON.stringify({ id: 123, name: 'x'.repeat(200), list: [1, 2, 3] });
  const s = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/x`;
  const N = 5000;
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const client = createHttpClient({ timeoutMs: 5000, maxBodyBytes: 1 << 20 });
  const bare = async () => { for (let i = 0; i < N; i++) { const r = await agent.request({ origin: new URL(url).origin, path: '/x', method: 'GET' }); JSON.parse(await r.body.text()); } };
  const ours = async () => { for (let i = 0; i < N; i++) { await client.send({ method: 'GET', url, headers: {} }); } };
  await bare(); await ours();
  let mb = Infinity, mo = Infinity;
  for (let round = 0; round < 8; round++) {
    let t = performance.now(); await bare(); mb = Math.min(mb, performance.now() - t);
    t = performance.now(); await ours(); mo = Math.min(mo, performance.now() - t);
  }
  console.log(`bare ${mb.toFixed(0)}ms ours ${mo.toFixed(0)}ms ratio ${(mo / mb).toFixed(2)}`);
  await agent.close(); await client.close(); s.close();
  expect(true).toBe(true);
}, 120000);
