/**
 * How a suite's cases are scheduled (src/engine/run-suite.ts): cases run side by side, the cases
 * of an exclusive group after them (one at a time within the group, groups side by side), and
 * `exclusive` cases alone at the end; of the cases side by side, those tagged `starts-early` first.
 */
import { describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import { run } from '../../src/engine/run.js';
import { pool } from '../../src/engine/run-suite.js';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { sharedBrowserOpen, withBrowser } from '../../src/targets/browser/shared-browser.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { tempSuite } from '../helpers/temp-suite.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

describe('runSuite scheduling of exclusive groups', () => {
  const cases: [string, string[]][] = [
    ['free-1', []],
    ['a-1', ['exclusive:a']],
    ['solo', ['exclusive']],
    ['free-2', []],
    ['b-1', ['exclusive:b']],
    ['a-2', ['exclusive:a']],
    ['free-3', []],
    ['b-2', ['exclusive:b']],
    ['a-3', ['exclusive:a']],
  ];
  /** Each case's start and end, as places in one sequence of moments. */
  const spans = new Map<string, { start: number; end: number }>();
  let clock = 0;
  const module = tempSuite(
    's',
    {
      requirements: '- { id: S-HOLD, level: MUST, source: "s.txt#A", text: holds }\n',
      cases: cases.map(([id, tags]) => `- id: ${id}\n  requirements: [S-HOLD]\n${tags.length ? `  tags: [${tags.map((t) => JSON.stringify(t)).join(', ')}]\n` : ''}  steps:\n    - check: s.hold\n`).join(''),
    },
    {
      hold: defineCheck({
        description: 'holds its case for a while, noting when it started and ended',
        args: { type: 'object' },
        judges: 'case',
        async run(ctx) {
          const span = { start: clock++, end: Number.NaN };
          spans.set(ctx.caseId, span);
          await new Promise((r) => setTimeout(r, 15));
          span.end = clock++;
        },
      }),
    },
  );
  const overlap = (x: string, y: string): boolean => {
    const a = spans.get(x);
    const b = spans.get(y);
    if (!a || !b) throw new Error(`no span for ${x} or ${y}`);
    return a.start < b.end && b.start < a.end;
  };

  it('runs a group one case at a time in order, beside other groups, after the free cases and before the exclusive ones', async () => {
    const result = await run({ modules: [module], suites: ['s'], targets: {}, concurrency: 8, seed: 1 });
    expect(result.summary.cases.passed).toBe(cases.length);
    const ids = cases.map(([id]) => id);
    const free = ids.filter((id) => id.startsWith('free-'));
    const a = ['a-1', 'a-2', 'a-3'];
    const b = ['b-1', 'b-2'];
    // within a group: never side by side, and in the order of the file
    for (const g of [a, b]) for (let i = 1; i < g.length; i++) {
      expect(overlap(g[i - 1] as string, g[i] as string)).toBe(false);
      expect(spans.get(g[i - 1] as string)?.end).toBeLessThan(spans.get(g[i] as string)?.start as number);
    }
    // the groups side by side
    expect(overlap('a-1', 'b-1')).toBe(true);
    // after every free case, which ran side by side
    expect(overlap('free-1', 'free-3')).toBe(true);
    for (const g of [...a, ...b]) for (const f of free) expect(overlap(g, f)).toBe(false);
    // the exclusive case alone, last
    for (const id of ids) if (id !== 'solo') {
      expect(overlap('solo', id)).toBe(false);
      expect(spans.get(id)?.end).toBeLessThan(spans.get('solo')?.start as number);
    }
  });
});

describe('runSuite scheduling of starts-early cases', () => {
  const order: string[] = [];
  const module = tempSuite(
    's',
    {
      requirements: '- { id: S-HOLD, level: MUST, source: "s.txt#A", text: holds }\n',
      cases: [
        ['free-1', []],
        ['early-1', ['starts-early']],
        ['free-2', []],
        ['solo', ['exclusive']],
        ['early-2', ['starts-early']],
      ]
        .map(([id, tags]) => `- id: ${String(id)}\n  requirements: [S-HOLD]\n${tags?.length ? `  tags: [${String(tags)}]\n` : ''}  steps:\n    - check: s.note\n`)
        .join(''),
    },
    {
      note: defineCheck({
        description: 'notes when its case started',
        args: { type: 'object' },
        judges: 'case',
        async run(ctx) {
          order.push(ctx.caseId);
          await new Promise((r) => setTimeout(r, 5));
        },
      }),
    },
  );

  it('starts the cases tagged starts-early before the others that run beside any other, each part in file order; reports keep the file order', async () => {
    const result = await run({ modules: [module], suites: ['s'], targets: {}, concurrency: 1, seed: 1 });
    expect(result.summary.cases.passed).toBe(5);
    // an exclusive case still runs alone, after them all
    expect(order).toEqual(['early-1', 'early-2', 'free-1', 'free-2', 'solo']);
    expect(result.suites[0]?.cases.map((c) => c.id)).toEqual(['free-1', 'early-1', 'free-2', 'solo', 'early-2']);
  });
});

describe('pool', () => {
  it('lets the work under way end before throwing the first error: nothing is left running after it returns', async () => {
    const ended: string[] = [];
    const work = async (item: string): Promise<void> => {
      if (item === 'bad') throw new Error('bad item');
      await new Promise((r) => setTimeout(r, 30));
      ended.push(item);
    };
    await expect(pool(['slow', 'bad', 'next'], 2, work)).rejects.toThrow('bad item');
    // the worker of the failed item stops; the other finished its item and took the next
    expect(ended.sort()).toEqual(['next', 'slow']);
  });
});

describe.skipIf(chromium.skip)('the end of a run', () => {
  const module = tempSuite(
    'v',
    { requirements: '- { id: V-VISIT, level: MUST, source: "s.txt#A", text: visits }\n', cases: '- id: visit\n  requirements: [V-VISIT]\n  steps:\n    - check: v.visit\n' },
    {
      visit: defineCheck({
        description: 'opens a blank page in the shared browser',
        args: { type: 'object' },
        judges: 'case',
        async run(ctx) {
          await withBrowser(ctx.signal, async (b) => {
            const page = await b.context.newPage();
            await page.goto('about:blank');
          });
        },
      }),
    },
  );

  it('closes the page visits browser once idle, rather than leaving the process up for its idle time', async () => {
    const result = await run({ modules: [module], suites: ['v'], targets: {}, seed: 1 });
    expect(result.summary.cases.passed).toBe(1);
    expect(sharedBrowserOpen()).toBe(false);
  }, 60_000);
});
