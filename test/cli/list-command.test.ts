import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCommand } from '../../cli/list-command.js';
import type { ListFlags } from '../../cli/suite-listing.js';
import { builtinSuites } from '../../suites/index.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-list-command-'));
// a cache folder of its own: the first listing below finds nothing kept
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `list` with these flags: what it printed, and how often it loaded the suites' modules. */
async function list(opts: ListFlags): Promise<{ text: string; loads: number }> {
  let loads = 0;
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const code = await listCommand(async () => (loads++, builtinSuites(opts.suite)), opts, true, out);
  expect(code).toBe(0);
  return { text: Buffer.concat(chunks).toString('utf8'), loads };
}

describe('specgate list, from a kept listing', () => {
  it('loads the suites once; the same listing again is shown from what it kept, alike, text and JSON', async () => {
    const first = await list({ suite: ['plugin'] });
    expect(first.loads).toBe(1);
    expect(first.text).toMatch(/^plugin — .*: \d+ requirements, \d+ cases\n/);
    const again = await list({ suite: ['plugin'] });
    expect(again).toEqual({ text: first.text, loads: 0 });

    const json = await list({ suite: ['plugin'], json: true });
    expect(json.loads).toBe(0);
    expect((JSON.parse(json.text) as { name: string }[]).map((s) => s.name)).toEqual(['plugin']);
  }, 120_000);

  it('loads the suites for a listing a flag narrows or extends, and for suites loaded together otherwise', async () => {
    await list({ suite: ['plugin'] });
    expect((await list({ suite: ['plugin'], part: ['invocation'] })).loads).toBe(1);
    expect((await list({ suite: ['plugin'], vars: true })).loads).toBe(1);
    // plugin and collation together are another load (names resolve among the suites loaded)
    const both = await list({ suite: ['collation', 'plugin'] });
    expect(both.loads).toBe(1);
    const bothAgain = await list({ suite: ['collation', 'plugin'] });
    expect(bothAgain).toEqual({ text: both.text, loads: 0 });
    // in the order named
    expect(bothAgain.text.indexOf('collation')).toBeLessThan(bothAgain.text.indexOf('\nplugin'));
  }, 120_000);

  it('keeps nothing of suites it is given besides the built-in ones (--suite-module)', async () => {
    let loads = 0;
    const out = new PassThrough();
    out.resume();
    const opts = { suite: ['collation'] };
    await listCommand(async () => (loads++, builtinSuites(opts.suite)), opts, false, out);
    await listCommand(async () => (loads++, builtinSuites(opts.suite)), opts, false, out);
    expect(loads).toBe(2);
  }, 120_000);
});
