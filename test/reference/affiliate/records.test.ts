import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { AffiliateModel } from '../../../reference/affiliate/model/affiliate-model.js';
import { conversionRecord, leadRecord } from '../../../reference/affiliate/model/records.js';

const NOW = Date.UTC(2026, 0, 1, 12, 30, 5);

describe('the records the model keeps', () => {
  const model = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: 'http://127.0.0.1:1/landing' });

  it('are written once, frozen, and are what they were written from', () => {
    const lead = model.leads[0];
    const conversion = model.conversions[0];
    if (!lead || !conversion) throw new Error('the seed holds leads and conversions');
    const a = leadRecord(lead, model);
    expect(leadRecord(lead, model)).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => {
      (a as Record<string, unknown>)['hasFTD'] = 7;
    }).toThrow(TypeError);
    expect(a['leadRequestIDEncoded']).toBe(lead.id);
    expect(conversionRecord(conversion, model)).toBe(conversionRecord(conversion, model));
  });
});
