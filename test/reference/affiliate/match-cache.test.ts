import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { AffiliateModel } from '../../../reference/affiliate/model/affiliate-model.js';

const NOW = Date.UTC(2026, 0, 1, 12, 30, 5);

describe('the matches a list query keeps', () => {
  const model = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: 'http://127.0.0.1:1/landing' });

  it('answer a repeated query with the same page, and a registration is listed at once', () => {
    const q = (extra: Record<string, string> = {}): URLSearchParams => new URLSearchParams({ fromDate: '2025-01-01 00:00:00', toDate: '2027-01-01 00:00:00', itemsPerPage: '1000', page: '2', ...extra });
    const first = model.listLeads(q());
    const again = model.listLeads(q());
    if (!first.ok || !again.ok) throw new Error('the query is valid');
    expect(again.value).toEqual(first.value);
    const before = first.value.total;
    const reg = model.register({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', password: 'S3cret!pass', ip: '203.0.113.7', phone: '5551234567' });
    expect(reg.ok).toBe(true);
    const after = model.listLeads(q());
    if (!after.ok) throw new Error('the query is valid');
    expect(after.value.total).toBe(before + 1);
  });
});
