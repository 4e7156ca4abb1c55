import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { AffiliateModel } from '../../../reference/affiliate/model/affiliate-model.js';
import { leadRecord } from '../../../reference/affiliate/model/records.js';
import { jsonBytes } from '../../../reference/affiliate/server/json-text.js';

const NOW = Date.UTC(2026, 0, 1, 12, 30, 5);

describe('jsonBytes', () => {
  const model = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: 'http://127.0.0.1:1/landing' });
  const text = (v: unknown): string | undefined => jsonBytes(v)?.toString('utf8');

  it('writes what JSON.stringify writes, kept records included', () => {
    const records = model.leads.slice(0, 3).map((l) => leadRecord(l, model));
    const values: unknown[] = [
      { items: records, total: { items: 3 }, message: null, server: { date: '2026-01-01 00:00:00', httpCode: 200, executionTime: 0.001 } },
      { a: undefined, b: () => 1, c: [undefined, () => 1, Symbol('s')], d: new Date(NOW), e: 'é "q" \u2028', f: -0, g: NaN, h: { toJSON: () => 'x' } },
      [{ ...records[0], hasFTD: 7 }, records[1]],
      Object.assign(Object.create(null) as object, { x: 1 }),
      'text',
      3,
      null,
    ];
    for (const v of values) expect(text(v)).toBe(JSON.stringify(v));
    expect(jsonBytes(undefined)).toBeUndefined();
  });
});
