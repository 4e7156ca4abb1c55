import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import {
  AffiliateModel,
  AUTOLOGIN_SHAPES,
  COUNTRIES,
  countryByCode,
  DAY_MS,
  formatDateTime,
  parseDateTime,
  POSTBACK_PAGE_SIZES,
  REQUIRED_FIELDS,
  shapeName,
  weekdayOf,
  type ListPage,
  type Outcome,
} from '../../../reference/affiliate/model/index.js';

const NOW = Date.UTC(2026, 0, 1);
const LANDING = 'http://127.0.0.1:9/landing';
const FROM = formatDateTime(NOW - 61 * DAY_MS);
const TO = formatDateTime(NOW + DAY_MS);

type Row = Record<string, unknown>;

let model: AffiliateModel;
beforeEach(() => {
  model = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: LANDING });
});

/** A query string from pairs (array parameters repeat their name). */
const q = (pairs: Array<[string, string | number]>): URLSearchParams => new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)]));
const windowed = (more: Array<[string, string | number]> = []): URLSearchParams => q([['fromDate', FROM], ['toDate', TO], ['itemsPerPage', 1000], ...more]);

function value<T>(o: Outcome<T>): T {
  if (!o.ok) throw new Error(`refused: ${o.messages.join('; ')}`);
  return o.value;
}
function refusedWith<T>(o: Outcome<T>): string[] {
  expect(o.ok).toBe(false);
  return o.ok ? [] : o.messages;
}

/** Every lead record of the window, all pages walked. */
function allLeads(extra: Array<[string, string | number]> = []): Row[] {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const p: ListPage = value(model.listLeads(windowed([...extra, ['page', page]])));
    out.push(...p.items);
    if (out.length >= p.total || !p.items.length) return out;
  }
}
const ids = (rows: Row[]): string[] => rows.map((r) => String(r['leadRequestIDEncoded']));

const validLead = (): Record<string, string> => ({ email: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', password: 'S3cret!pass', ip: '203.0.113.7', phone: '5551234567' });

describe('seed', () => {
  it('is deterministic for a seed and differs for another', () => {
    const again = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: LANDING });
    const other = new AffiliateModel({ clock: new VirtualClock(NOW), landingUrl: LANDING, seed: 7 });
    expect(again.leads.map((l) => l.id)).toEqual(model.leads.map((l) => l.id));
    expect(again.conversions).toEqual(model.conversions);
    expect(again.postbacks).toEqual(model.postbacks);
    expect(other.leads[0]?.id).not.toBe(model.leads[0]?.id);
  });

  it('holds enough leads and conversions to page past 1000, all in the 60 days before now', () => {
    const c = model.counts();
    expect(c).toEqual({ offers: 40, leads: 1500, conversions: c.conversions, postbacks: 60 });
    expect(c.conversions).toBeGreaterThan(1000);
    for (const l of model.leads) expect(l.signupMs).toBeGreaterThanOrEqual(NOW - 60 * DAY_MS);
    for (const l of model.leads) expect(l.signupMs).toBeLessThanOrEqual(NOW);
    for (const c2 of model.conversions) expect(c2.depositMs).toBeLessThanOrEqual(NOW);
  });

  it('offers have unique ids and hashes, commissions spelled as the spec spells them', () => {
    const page = value(model.listOffers(q([['itemPerPage', 1000]])));
    expect(page.totalItems).toBe(40);
    expect(new Set(page.items.map((o) => o['id'])).size).toBe(40);
    expect(new Set(page.items.map((o) => o['hash'])).size).toBe(40);
    for (const o of page.items) {
      expect(Number.isInteger(o['id'])).toBe(true);
      for (const c of o['commissions'] as Row[]) expect(Object.keys(c).sort()).toEqual(['commisionAmount', 'commissionEvent', 'countryName']);
      for (const v of o['verticals'] as Row[]) expect(typeof v['ID']).toBe('string');
    }
  });
});

describe('lead records', () => {
  it('have isSmartClick "0"/"1", hasFTD 0/1, custom1..5 string or null, signupDate YYYY-MM-DD HH:mm:ss', () => {
    const rows = allLeads();
    expect(rows).toHaveLength(1500);
    expect(new Set(rows.map((r) => r['isSmartClick']))).toEqual(new Set(['0', '1']));
    expect(new Set(rows.map((r) => r['hasFTD']))).toEqual(new Set([0, 1]));
    for (const r of rows) {
      for (const n of [1, 2, 3, 4, 5]) expect(r[`custom${n}`] === null || typeof r[`custom${n}`] === 'string').toBe(true);
      expect(parseDateTime(String(r['signupDate']))).toBeDefined();
      expect(typeof r['customerID']).toBe('string');
    }
  });

  it('leadRequestIDEncoded is unique, case-sensitive, with a pair differing only in letter case', () => {
    const all = ids(allLeads());
    expect(new Set(all).size).toBe(all.length);
    const [a, b] = model.caseTwins();
    expect(a).not.toBe(b);
    expect(a.toLowerCase()).toBe(b.toLowerCase());
    expect(all).toContain(a);
    expect(all).toContain(b);
    // lower-cased, the two collide: only case keeps them apart
    expect(new Set(all.map((id) => id.toLowerCase())).size).toBe(all.length - 1);
    expect(model.leadById(a)?.customerID).not.toBe(model.leadById(b)?.customerID);
  });
});

describe('windows and times', () => {
  it('requires fromDate and toDate in YYYY-MM-DD HH:mm:ss', () => {
    expect(refusedWith(model.listLeads(q([['toDate', TO]])))[0]).toMatch(/fromDate is required/);
    expect(refusedWith(model.listConversions(q([['fromDate', FROM]])))[0]).toMatch(/toDate is required/);
    expect(refusedWith(model.income(q([]))).join(' ')).toMatch(/fromDate.*toDate/);
    expect(refusedWith(model.listLeads(q([['fromDate', '2025-12-01T00:00:00'], ['toDate', TO]])))[0]).toMatch(/fromDate must be/);
    expect(refusedWith(model.listLeads(q([['fromDate', '2025-02-30 00:00:00'], ['toDate', TO]])))[0]).toMatch(/fromDate must be/);
    expect(refusedWith(model.listLeads(q([['fromDate', TO], ['toDate', FROM]])))[0]).toMatch(/not be after/);
  });

  it('the window is inclusive at both ends, to the second', () => {
    const lead = model.leads[100];
    if (!lead) throw new Error('no lead');
    const at = formatDateTime(lead.signupMs);
    const exact = value(model.listLeads(q([['fromDate', at], ['toDate', at]])));
    expect(ids(exact.items)).toContain(lead.id);
    const after = value(model.listLeads(q([['fromDate', formatDateTime(lead.signupMs + 1000)], ['toDate', TO], ['itemsPerPage', 1000]])));
    expect(ids(after.items)).not.toContain(lead.id);
  });

  it('fromTime/toTime keep only those times of day, and a range across midnight wraps', () => {
    const all = allLeads();
    const time = (r: Row): string => String(r['signupDate']).slice(11);
    const day = allLeads([['fromTime', '09:00:00'], ['toTime', '10:59:59']]);
    expect(day.length).toBeGreaterThan(0);
    expect(day.length).toBe(all.filter((r) => time(r) >= '09:00:00' && time(r) <= '10:59:59').length);
    const night = allLeads([['fromTime', '22:00:00'], ['toTime', '01:59:59']]);
    expect(night.length).toBe(all.filter((r) => time(r) >= '22:00:00' || time(r) <= '01:59:59').length);
    expect(refusedWith(model.listLeads(windowed([['fromTime', '24:00:00']])))[0]).toMatch(/fromTime/);
  });

  it('selectedDays[] counts 1 as Sunday, 2 as Monday, 7 as Saturday', () => {
    const all = allLeads();
    const weekday = (r: Row): number => new Date(`${String(r['signupDate']).replace(' ', 'T')}Z`).getUTCDay();
    const sundays = allLeads([['selectedDays[]', 1]]);
    expect(sundays.length).toBeGreaterThan(0);
    expect(sundays.every((r) => weekday(r) === 0)).toBe(true);
    expect(sundays.length).toBe(all.filter((r) => weekday(r) === 0).length);
    const weekend = allLeads([['selectedDays[]', 1], ['selectedDays[]', 7]]);
    expect(weekend.length).toBe(all.filter((r) => weekday(r) === 0 || weekday(r) === 6).length);
    const mondays = allLeads([['selectedDays[]', 2]]);
    expect(mondays.every((r) => weekday(r) === 1)).toBe(true);
    expect(weekdayOf(Date.UTC(2026, 0, 4))).toBe(1); // 2026-01-04 is a Sunday
    expect(refusedWith(model.listLeads(windowed([['selectedDays[]', 8]])))[0]).toMatch(/selectedDays/);
    expect(refusedWith(model.listLeads(windowed([['selectedDays[]', 0]])))[0]).toMatch(/selectedDays/);
  });

  it('conversions are windowed by depositDate', () => {
    const c = model.conversions[500];
    if (!c) throw new Error('no conversion');
    const at = formatDateTime(c.depositMs);
    const page = value(model.listConversions(q([['fromDate', at], ['toDate', at]])));
    expect(page.items.map((r) => r['leadRequestIDEncoded'])).toContain(c.leadId);
    for (const r of page.items) expect(r['depositDate']).toBe(at);
  });
});

describe('paging', () => {
  it('leads page across 1000: every lead exactly once, itemsPerPage at most 1000', () => {
    const first = value(model.listLeads(windowed([['page', 1]])));
    const second = value(model.listLeads(windowed([['page', 2]])));
    const third = value(model.listLeads(windowed([['page', 3]])));
    expect(first.total).toBe(1500);
    expect(first.items).toHaveLength(1000);
    expect(second.items).toHaveLength(500);
    expect(third.items).toHaveLength(0);
    expect(new Set([...ids(first.items), ...ids(second.items)]).size).toBe(1500);
    expect(refusedWith(model.listLeads(q([['fromDate', FROM], ['toDate', TO], ['itemsPerPage', 1001]])))[0]).toMatch(/itemsPerPage/);
    expect(refusedWith(model.listLeads(windowed([['page', 0]])))[0]).toMatch(/page/);
  });

  it('conversions page with itemPerPage (the spec spelling) across 1000', () => {
    const total = model.conversions.length;
    const w = (page: number, size: number | string): URLSearchParams => q([['fromDate', FROM], ['toDate', TO], ['itemPerPage', size], ['page', page]]);
    const first = value(model.listConversions(w(1, 1000)));
    const second = value(model.listConversions(w(2, 1000)));
    expect(first.items).toHaveLength(1000);
    expect(second.items).toHaveLength(total - 1000);
    expect(new Set([...first.items, ...second.items].map((r) => r['leadRequestIDEncoded'])).size).toBe(total);
    expect(refusedWith(model.listConversions(w(1, 1001)))[0]).toMatch(/itemPerPage/);
    expect(refusedWith(model.listConversions(w(1, 'ten')))[0]).toMatch(/itemPerPage/);
  });

  it('offers page with itemPerPage; data.page echoes the page', () => {
    const p2 = value(model.listOffers(q([['itemPerPage', 15], ['page', 2]])));
    expect(p2.page).toBe(2);
    expect(p2.items.map((o) => o['id'])).toEqual(Array.from({ length: 15 }, (_, i) => 1016 + i));
    expect(value(model.listOffers(q([['itemPerPage', 15], ['page', 3]]))).items).toHaveLength(10);
    expect(refusedWith(model.listOffers(q([['itemPerPage', 1001]])))[0]).toMatch(/itemPerPage/);
    expect(value(model.listOffers(q([['itemPerPage', 1000]]))).items).toHaveLength(40);
  });

  it('postbacks: default 25, only the listed sizes, page from 1', () => {
    const first = value(model.listPostbacks(q([])));
    expect(first.items).toHaveLength(25);
    expect(first.total).toBe(60);
    expect(value(model.listPostbacks(q([['page', 3]]))).items).toHaveLength(10);
    for (const size of POSTBACK_PAGE_SIZES) expect(value(model.listPostbacks(q([['itemsPerPage', size]]))).items).toHaveLength(Math.min(size, 60));
    for (const size of [1, 7, 30, 50, 2000, 0, -5]) expect(refusedWith(model.listPostbacks(q([['itemsPerPage', size]])))[0]).toMatch(/itemsPerPage/);
    expect(refusedWith(model.listPostbacks(q([['page', 0]])))[0]).toMatch(/page/);
    const walked = [1, 2, 3].flatMap((page) => value(model.listPostbacks(q([['page', page]]))).items.map((p) => p['ID']));
    expect(new Set(walked).size).toBe(60);
  });
});

describe('filters', () => {
  it('offers: name (part, any case), isExternal, campaignId, campaignIds[]', () => {
    const all = model.offers;
    const list = (pairs: Array<[string, string | number]>): unknown[] => value(model.listOffers(q([['itemPerPage', 1000], ...pairs]))).items.map((o) => o['id']);
    expect(list([['search[name]', 'atlas']])).toEqual(all.filter((o) => o.name.includes('Atlas')).map((o) => o.id));
    const external = list([['search[isExternal]', 1]]);
    const internal = list([['search[isExternal]', 0]]);
    expect(external.length).toBeGreaterThan(0);
    expect(external.length + internal.length).toBe(40);
    expect(list([['search[campaignId]', 11]])).toEqual(all.filter((o) => o.campaignId === 11).map((o) => o.id));
    expect(list([['search[campaignIds][]', 11], ['search[campaignIds][]', 12]])).toEqual(all.filter((o) => o.campaignId === 11 || o.campaignId === 12).map((o) => o.id));
    expect(refusedWith(model.listOffers(q([['search[isExternal]', 'yes']])))[0]).toMatch(/isExternal/);
  });

  it('leads: each filter keeps exactly the matching leads', () => {
    const all = allLeads();
    const hashOf = new Map(model.offers.map((o) => [o.id, o.hash]));
    const byId = (rows: Row[]): string[] => ids(rows).sort();
    const expectFilter = (pairs: Array<[string, string | number]>, keep: (r: Row) => boolean): void => {
      const got = allLeads(pairs);
      const want = all.filter(keep);
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(all.length);
      expect(byId(got)).toEqual(byId(want));
    };
    expectFilter([['offerIDs[]', 1003], ['offerIDs[]', 1007]], (r) => r['campaignHash'] === hashOf.get(1003) || r['campaignHash'] === hashOf.get(1007));
    expectFilter([['hasFTD', 1]], (r) => r['hasFTD'] === 1);
    expectFilter([['hasFTD', 0]], (r) => r['hasFTD'] === 0);
    expectFilter([['custom1', 'sub-b']], (r) => r['custom1'] === 'sub-b');
    expectFilter([['custom2', 'click-7'], ['custom1', 'sub-a']], (r) => r['custom2'] === 'click-7' && r['custom1'] === 'sub-a');
    expectFilter([['os', 'Android']], (r) => r['platform'] === 'Android');
    expectFilter([['saleStatus', 'Call Back']], (r) => r['saleStatus'] === 'Call Back');
    expectFilter([['customerID', 4000042]], (r) => r['customerID'] === '4000042');
    const test = new Set(model.leads.filter((l) => l.isTest).map((l) => l.id));
    expectFilter([['skip', 1]], (r) => test.has(String(r['leadRequestIDEncoded'])));
    expectFilter([['skip', 0]], (r) => !test.has(String(r['leadRequestIDEncoded'])));
    const latam = new Set(COUNTRIES.filter((c) => c.groups.includes(2)).map((c) => c.code));
    expectFilter([['countryGroupIds[]', 2]], (r) => latam.has(String(r['countryCode'])));
    const crypto = new Set(model.offers.filter((o) => o.verticals.some((v) => v.ID === '2')).map((o) => o.hash));
    expectFilter([['verticals[]', '2']], (r) => crypto.has(String(r['campaignHash'])));
    expect(refusedWith(model.listLeads(windowed([['customerID', 'abc']])))[0]).toMatch(/customerID/);
    expect(refusedWith(model.listLeads(windowed([['hasFTD', 2]])))[0]).toMatch(/hasFTD/);
  });

  it('conversions: campaignIDs[] are offers, lateConversionHour keeps late deposits', () => {
    const w = (pairs: Array<[string, string | number]>): Row[] => value(model.listConversions(q([['fromDate', FROM], ['toDate', TO], ['itemPerPage', 1000], ...pairs]))).items;
    const hash = model.offerById(1005)?.hash;
    const some = w([['campaignIDs[]', 1005]]);
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((r) => r['campaignHash'] === hash)).toBe(true);
    const late = value(model.listConversions(q([['fromDate', FROM], ['toDate', TO], ['lateConversionHour', 48]])));
    const lateCount = model.conversions.filter((c) => c.depositMs - (model.leadById(c.leadId)?.signupMs ?? 0) >= 48 * 3600_000).length;
    expect(late.total).toBe(lateCount);
    expect(lateCount).toBeLessThan(model.conversions.length);
  });

  it('postbacks: type, offerID, whitelabelID, status, title, url, affiliateHash, postbackID', () => {
    const all = model.postbacks;
    const list = (pairs: Array<[string, string | number]>): unknown[] => value(model.listPostbacks(q([['itemsPerPage', 1000], ...pairs]))).items.map((p) => p['ID']);
    const p0 = all[0];
    if (!p0) throw new Error('no postback');
    expect(list([['type', 1]])).toEqual(all.filter((p) => p.type === 1).map((p) => p.ID));
    expect(list([['offerID', p0.projectID]])).toEqual(all.filter((p) => p.projectID === p0.projectID).map((p) => p.ID));
    expect(list([['whitelabelID', 12]])).toEqual(all.filter((p) => p.whitelabelID === 12).map((p) => p.ID));
    expect(list([['status', 0]])).toEqual(all.filter((p) => p.status === 0).map((p) => p.ID));
    expect(list([['title', p0.title]])).toEqual([p0.ID]);
    expect(list([['url', p0.url]])).toEqual([p0.ID]);
    expect(list([['affiliateHash', p0.affiliateHash]])).toEqual(all.filter((p) => p.affiliateHash === p0.affiliateHash).map((p) => p.ID));
    expect(list([['postbackID', 510]])).toEqual([510]);
  });

  it('income: cost of leads and income of deposits in the window, narrowed by filters', () => {
    const total = value(model.income(q([['fromDate', FROM], ['toDate', TO]])));
    const cost = Math.round(model.leads.reduce((s, l) => s + l.cost, 0) * 100) / 100;
    const income = Math.round(model.conversions.reduce((s, c) => s + c.commission, 0) * 100) / 100;
    expect(total).toEqual({ cost, income });
    const one = value(model.income(q([['fromDate', FROM], ['toDate', TO], ['campaignID', 1001]])));
    expect(one.income).toBeLessThan(total.income);
    expect(one.income).toBeGreaterThan(0);
    const qualified = value(model.income(q([['fromDate', FROM], ['toDate', TO], ['qualified', 1]])));
    expect(qualified.income).toBeLessThan(total.income);
    expect(refusedWith(model.income(q([['fromDate', FROM], ['toDate', TO], ['itemsPerPage', 1001]])))[0]).toMatch(/itemsPerPage/);
  });
});

describe('conversions and leads', () => {
  it('every conversion matches a lead with hasFTD 1, deposited after signup, one per such lead', () => {
    const leads = new Map(allLeads().map((r) => [String(r['leadRequestIDEncoded']), r]));
    const convs = [1, 2].flatMap((page) => value(model.listConversions(q([['fromDate', FROM], ['toDate', TO], ['itemPerPage', 1000], ['page', page]]))).items);
    expect(convs).toHaveLength(model.conversions.length);
    for (const c of convs) {
      const lead = leads.get(String(c['leadRequestIDEncoded']));
      expect(lead?.['hasFTD']).toBe(1);
      expect(String(c['depositDate']) > String(lead?.['signupDate'])).toBe(true);
      expect(c['customerID']).toBe(lead?.['customerID']);
      expect(c['campaignHash']).toBe(lead?.['campaignHash']);
    }
    expect(new Set(convs.map((c) => c['leadRequestIDEncoded'])).size).toBe([...leads.values()].filter((l) => l['hasFTD'] === 1).length);
  });
});

describe('registration', () => {
  it('accepts the required fields and answers the details', () => {
    const d = value(model.register(validLead()));
    expect(d.leadRequest.ID).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(d.offer).toEqual({ ID: '1001', name: model.offers[0]?.name, hash: model.offers[0]?.hash });
    expect(d.advertiser.name).not.toBe('');
    expect(d.postbacks.length).toBeGreaterThan(0);
    expect(d.redirect.url.startsWith(`${LANDING}/`)).toBe(true);
    expect(model.leadById(d.leadRequest.ID)?.signupMs).toBe(NOW);
  });

  it.each(REQUIRED_FIELDS)('refuses a request without %s, or with it empty, naming it', (field) => {
    const without = validLead();
    delete without[field];
    expect(refusedWith(model.register(without))).toEqual([`${field} is required`]);
    expect(refusedWith(model.register({ ...validLead(), [field]: '  ' }))).toEqual([`${field} is required`]);
  });

  it('checks types: email an e-mail, ip an IP address, areaCode numeric', () => {
    expect(refusedWith(model.register({ ...validLead(), email: 'not-an-email' }))[0]).toMatch(/^email must be/);
    expect(refusedWith(model.register({ ...validLead(), ip: '999.1.1.1' }))[0]).toMatch(/^ip must be/);
    expect(refusedWith(model.register({ ...validLead(), areaCode: '+4x' }))[0]).toMatch(/^areaCode must be numeric/);
    expect(model.register({ ...validLead(), ip: '2001:db8::1', areaCode: '49' }).ok).toBe(true);
    expect(refusedWith(model.register({}))).toHaveLength(6);
  });

  it('accepts the optional fields and the sample extras custom and currency, and lists the lead', () => {
    const extras = { custom1: 'reg-sub', custom5: 'five', comment: 'hi', offerName: 'beacon trade', offerWebsite: '', locale: 'de-DE', custom: 'x', currency: 'EUR', unknownField: 'ignored' };
    const d = value(model.register({ ...validLead(), ...extras }));
    expect(d.offer.name).toBe('Beacon Trade');
    const lead = model.leadById(d.leadRequest.ID);
    expect(lead?.registration?.['currency']).toBe('EUR');
    expect(lead?.registration?.['password']).toBeUndefined();
    const found = allLeads([['custom1', 'reg-sub']]);
    expect(ids(found)).toEqual([d.leadRequest.ID]);
    expect(found[0]?.['custom5']).toBe('five');
    expect(found[0]?.['hasFTD']).toBe(0);
  });

  it('gives every registration a new ID', () => {
    const seen = new Set(model.leads.map((l) => l.id));
    for (let i = 0; i < 50; i++) {
      const id = value(model.register(validLead())).leadRequest.ID;
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
  });
});

describe('autologin', () => {
  it('holds every shape: POST and GET, parameters as array and object, fragment and none', () => {
    const seen = new Set<string>();
    for (const l of model.leads.slice(0, 16)) {
      const t = value(model.autologin(l.id));
      expect(t.url.startsWith(`${LANDING}/login/`)).toBe(true);
      const params = Array.isArray(t.parameters) ? 'array' : 'object';
      seen.add(shapeName({ method: t.method, parameters: params, fragment: t.fragment !== null }));
      if (Array.isArray(t.parameters)) for (const p of t.parameters) expect(Object.keys(p).sort()).toEqual(['name', 'value']);
      if (t.fragment !== null) expect(t.fragment).toMatch(/^[a-z0-9-]+$/);
    }
    expect([...seen].sort()).toEqual(AUTOLOGIN_SHAPES.map(shapeName).sort());
    for (const shape of AUTOLOGIN_SHAPES) expect(model.leadWithShape(shape)).toBeDefined();
  });

  it('needs leadRequestID, knows IDs exactly (case-sensitive), and serves registered leads', () => {
    expect(refusedWith(model.autologin(undefined))[0]).toBe('leadRequestID is required');
    expect(model.autologin('nope')).toMatchObject({ ok: false, kind: 'not-found' });
    const [a, b] = model.caseTwins();
    const lead = (id: string): unknown => {
      const t = value(model.autologin(id));
      return Array.isArray(t.parameters) ? t.parameters.find((p) => p.name === 'lead')?.value : t.parameters['lead'];
    };
    expect(lead(a)).toBe(a);
    expect(lead(b)).toBe(b);
    const d = value(model.register(validLead()));
    const t = value(model.autologin(d.leadRequest.ID));
    expect(d.redirect.url.startsWith(t.url)).toBe(true);
    if (t.fragment !== null) expect(d.redirect.url.endsWith(`#${t.fragment}`)).toBe(true);
  });
});

describe('affiliate model lookups', () => {
  it('write an instant the same the first time, again, and after more instants than are remembered', () => {
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const instants = Array.from({ length: 25_000 }, (_, i) => NOW - i * 1_001);
    for (const ms of instants) expect(formatDateTime(ms)).toBe(iso(ms));
    for (const ms of instants.slice(0, 100)) expect(formatDateTime(ms)).toBe(iso(ms));
    expect(formatDateTime(NOW + 999)).toBe('2026-01-01 00:00:00');
  });

  it('find each offer and country by its id or code as a search of the lists would, and nothing for an unknown one', () => {
    for (const o of model.offers) expect(model.offerById(o.id)).toBe(o);
    expect(model.offerById(999)).toBeUndefined();
    for (const c of COUNTRIES) expect(countryByCode(c.code)).toBe(COUNTRIES.find((x) => x.code === c.code));
    expect(countryByCode('??')).toBeUndefined();
  });
});
