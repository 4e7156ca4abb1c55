/**
 * The affiliate suite's passive rules (suites/affiliate/passive/), each on small recordings: per
 * requirement one that keeps it (passed, with its evidence), one that breaks it (that requirement
 * fails, on the entry that shows it), and one that holds nothing the rule judges (untested, with
 * the rule's reason).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { matchRecording } from '../../../src/engine/passive/match-recording.js';
import { passiveView, type PassiveVerdict } from '../../../src/engine/passive/passive-rules.js';
import { loadHar } from '../../../src/targets/har/load-har.js';
import { suite } from '../../../suites/affiliate/index.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { messages, outcomes as outcomesOf, ruleJudge, type RuleVerdicts } from '../../helpers/rule-judge.js';
import { harEntry, harFile, type EntryInput } from '../../targets/har/har-builder.js';

const affiliate = loadedSuite(suite);
const table = affiliate.api as ApiTable;
const RULES = suite.passiveRules ?? {};

const A = 'http://aff.test/api/v2';
const KEY = { 'api-key': 'k' };
const json = { 'content-type': 'application/json' };
const FROM = '2025-06-01 00:00:00';
const TO = '2025-06-02 00:00:00';

/** Recordings the tests below read themselves. */
const dir = mkdtempSync(join(tmpdir(), 'specgate-affiliate-rules-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const judge = ruleJudge('specgate-affiliate-rules-', table, RULES);
const outcomes = (vs: RuleVerdicts): Record<string, string> => outcomesOf(vs, undefined, true);
const lacking = (vs: Record<string, PassiveVerdict>): Record<string, string | undefined> => Object.fromEntries(Object.entries(vs).map(([k, v]) => [k, v.lacking]));

// --- answers as the spec shapes them (part E), smallest that keep every schema

const server = (httpCode = 200): Record<string, unknown> => ({ date: '2025-06-01 12:00:00', httpCode, executionTime: 0.01 });
const envelope = (httpCode = 200): Record<string, unknown> => ({ message: null, server: server(httpCode) });
const offer = { id: 1, name: 'Offer', hash: 'h1', catalogLogoPath: '/logo.png', website: 'https://broker.test', commissions: [{ commissionEvent: 'FTD', countryName: 'Germany', commisionAmount: '100' }], verticals: [{ ID: '1', name: 'Forex' }] };
const lead = (id: string, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  campaignName: 'c', countryName: 'Germany', custom1: null, custom2: 's2', custom3: null, custom4: null, custom5: null, platform: 'desktop', browser: 'firefox',
  signupDate: '2025-06-01 10:00:00', isSmartClick: '0', customerID: '7', countryCode: 'DE', saleStatus: null, campaignHash: 'ch', leadRequestIDEncoded: id, hasFTD: 1, ...more,
});
const conversion = { depositDate: '2025-06-01 11:00:00', customerID: '7', custom1: null, custom2: null, custom3: null, custom4: null, custom5: null, platform: 'desktop', browser: 'firefox', campaignName: 'c', countryName: 'Germany', referer: null, isSmartClick: '0', countryCode: 'DE', campaignHash: 'ch', leadRequestIDEncoded: 'L1' };
const postback = { ID: 1, projectID: 1, whitelabelID: 1, type: 1, status: 1, event: 1, title: 't', url: 'https://aff.test/pb', check_condition: '', time_registered: '2025-06-01 09:00:00', comment: '', projectTitle: 'p', hash: 'h', whitelabelName: 'w', affiliateEmail: 'a@aff.test', affiliateName: 'a', affiliateHash: 'ah', amount: 10 };

const BODIES = {
  offers: () => ({ data: { items: [offer], page: 1, totalItems: 1 }, ...envelope() }),
  leads: (items: unknown[] = [lead('L1'), lead('L2', { isSmartClick: '1', hasFTD: 0 })]) => ({ items, total: { items: items.length }, ...envelope() }),
  conversions: () => ({ items: [conversion], total: { items: '1' }, ...envelope() }),
  income: () => ({ cost: 1.5, income: 3, ...envelope() }),
  autologin: () => ({ details: { url: 'https://broker.test/login', parameters: [{ name: 'token', value: 't' }], fragment: null, method: 'POST' }, ...envelope() }),
  postbacks: () => ({ items: [postback, { ...postback, ID: 2 }, { ...postback, ID: 3 }], total: { items: 3 }, ...envelope() }),
};
const refusal = (status = 400): Record<string, unknown> => ({ messages: ['refused'], message: 'refused', server: server(status) });

/** A GET of `path` with `query`, the key unless `key: false`, answered `status` with `body`. */
const get = (path: string, query: Record<string, string>, body: unknown, status = 200, key = true): EntryInput => {
  const q = new URLSearchParams(query).toString();
  return { url: `${A}${path}${q ? `?${q}` : ''}`, requestHeaders: key ? KEY : {}, status, responseHeaders: json, body: JSON.stringify(body) };
};
const DATES = { fromDate: FROM, toDate: TO };
const ok = {
  offers: (body: unknown = BODIES.offers(), status = 200) => get('/offers', {}, body, status),
  leads: (body: unknown = BODIES.leads(), status = 200) => get('/leads', DATES, body, status),
  conversions: (body: unknown = BODIES.conversions(), status = 200) => get('/conversions', DATES, body, status),
  income: (body: unknown = BODIES.income(), status = 200) => get('/income', DATES, body, status),
  autologin: (body: unknown = BODIES.autologin(), status = 200) => get('/brokers/login/details', { leadRequestID: 'L1' }, body, status),
  postbacks: (body: unknown = BODIES.postbacks(), status = 200) => get('/postbacks', {}, body, status),
};
const ALL_READS = [ok.offers(), ok.leads(), ok.conversions(), ok.income(), ok.autologin(), ok.postbacks()];

describe('every rule judges only requirements of the catalog', () => {
  it('the requirements named are in requirements.yaml and not excluded', () => {
    const ids = new Map(affiliate.requirements.map((r) => [r.id, r]));
    for (const [name, rule] of Object.entries(RULES)) for (const id of rule.requirements) expect(ids.has(id) && ids.get(id)?.excluded === undefined, `${name}: ${id}`).toBe(true);
  });
  it('the fixtures are recorded as the operations they stand for', () => {
    const file = join(dir, 'ops.har');
    writeFileSync(file, JSON.stringify(harFile(ALL_READS.map((e) => harEntry(e)))));
    const recording = loadHar(file);
    const ops = passiveView(table, recording, matchRecording(table, recording)).exchanges.map((x) => x.operation.id);
    expect(ops).toEqual(['offers', 'leads', 'conversions', 'income', 'autologin', 'postbacks']);
  });
});

describe('key-required', () => {
  it('requests without Api-Key refused: passed, each one evidence', () => {
    expect(outcomes(judge('key-required', [get('/offers', {}, refusal(401), 401, false), get('/leads', DATES, refusal(401), 401, false), ok.offers()]))).toEqual({ 'AFF-API-KEY-REQUIRED': 'pass 2' });
  });
  it('an offer list given without Api-Key fails on that entry', () => {
    const vs = judge('key-required', [ok.offers(), get('/offers', {}, refusal(401), 401, false), get('/offers', {}, BODIES.offers(), 200, false)]);
    expect(outcomes(vs)).toEqual({ 'AFF-API-KEY-REQUIRED': 'fail 2' });
    expect(messages(vs['AFF-API-KEY-REQUIRED'])).toEqual(['answered 200 to a request without Api-Key']);
  });
  it('every request with the key: untested', () => {
    const vs = judge('key-required', ALL_READS);
    expect(outcomes(vs)).toEqual({ 'AFF-API-KEY-REQUIRED': 'untested' });
    expect(lacking(vs)).toEqual({ 'AFF-API-KEY-REQUIRED': 'no request without Api-Key was recorded' });
  });
});

describe('dates-required', () => {
  const noFrom = (path: string, body: unknown = refusal(), status = 400): EntryInput => get(path, { toDate: TO }, body, status);
  const noTo = (path: string, body: unknown = refusal(), status = 400): EntryInput => get(path, { fromDate: FROM }, body, status);
  it('lead, conversion and income requests without a date refused: each passed with its requests', () => {
    const entries = [noFrom('/leads'), noTo('/leads'), get('/leads', {}, refusal(), 400), noFrom('/conversions'), noTo('/income'), ...ALL_READS];
    expect(outcomes(judge('dates-required', entries))).toEqual({ 'AFF-LEADS-DATES-REQUIRED': 'pass 3', 'AFF-CONVERSIONS-DATES-REQUIRED': 'pass 1', 'AFF-INCOME-DATES-REQUIRED': 'pass 1' });
  });
  it('a lead list without fromDate, income without toDate, conversions without fromDate answered 200: each fails on its entry, naming the date left out', () => {
    const entries = [noTo('/leads'), noFrom('/leads', BODIES.leads(), 200), noFrom('/conversions', BODIES.conversions(), 200), noFrom('/income'), noTo('/income', BODIES.income(), 200)];
    const vs = judge('dates-required', entries);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-DATES-REQUIRED': 'fail 1', 'AFF-CONVERSIONS-DATES-REQUIRED': 'fail 2', 'AFF-INCOME-DATES-REQUIRED': 'fail 4' });
    expect(messages(vs['AFF-LEADS-DATES-REQUIRED'])).toEqual(['answered 200 to a leads request without fromDate']);
    expect(messages(vs['AFF-INCOME-DATES-REQUIRED'])).toEqual(['answered 200 to a income request without toDate']);
  });
  it('a request without the key is not judged (it is refused for the key); with both dates nothing is: untested', () => {
    const vs = judge('dates-required', [get('/leads', { toDate: TO }, BODIES.leads(), 200, false), get('/income', {}, BODIES.income(), 200, false), ...ALL_READS]);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-DATES-REQUIRED': 'untested', 'AFF-CONVERSIONS-DATES-REQUIRED': 'untested', 'AFF-INCOME-DATES-REQUIRED': 'untested' });
    expect(lacking(vs)).toEqual({
      'AFF-LEADS-DATES-REQUIRED': 'no leads request with the key but without fromDate or toDate was recorded',
      'AFF-CONVERSIONS-DATES-REQUIRED': 'no conversions request with the key but without fromDate or toDate was recorded',
      'AFF-INCOME-DATES-REQUIRED': 'no income request with the key but without fromDate or toDate was recorded',
    });
  });
});

describe('httpcode-status', () => {
  it('successes and refusals carrying their own status: passed, each answer one evidence', () => {
    expect(outcomes(judge('httpcode-status', [...ALL_READS, get('/offers', {}, refusal(401), 401, false)]))).toEqual({ 'AFF-ENVELOPE-HTTPCODE-STATUS': 'pass 7' });
  });
  it('income saying 201 in a 200, a refusal saying 200 in a 400: each fails on its entry', () => {
    const vs = judge('httpcode-status', [ok.offers(), ok.income({ ...BODIES.income(), server: server(201) }), get('/leads', { toDate: TO }, refusal(200), 400)]);
    expect(outcomes(vs)).toEqual({ 'AFF-ENVELOPE-HTTPCODE-STATUS': 'fail 1,2' });
    expect(messages(vs['AFF-ENVELOPE-HTTPCODE-STATUS'])).toEqual(['server.httpCode is 201 in an answer of status 200', 'server.httpCode is 200 in an answer of status 400']);
  });
  it('no answer carries server.httpCode: untested', () => {
    const vs = judge('httpcode-status', [get('/offers', {}, { messages: ['no key'] }, 401, false)]);
    expect(outcomes(vs)).toEqual({ 'AFF-ENVELOPE-HTTPCODE-STATUS': 'untested' });
    expect(lacking(vs)).toEqual({ 'AFF-ENVELOPE-HTTPCODE-STATUS': 'no recorded answer carries server.httpCode' });
  });
});

describe('success-envelope', () => {
  it('every success with the key carries message null and the server object: both passed, each success one evidence', () => {
    expect(outcomes(judge('success-envelope', [...ALL_READS, get('/offers', {}, refusal(401), 401, false)]))).toEqual({ 'AFF-ENVELOPE-SERVER': 'pass 6', 'AFF-ENVELOPE-MESSAGE-NULL': 'pass 6' });
  });
  it('a message in one success fails MESSAGE-NULL only; a success without server fails SERVER only', () => {
    const { server: _dropped, ...noServer } = BODIES.postbacks() as Record<string, unknown>;
    const vs = judge('success-envelope', [ok.offers({ ...BODIES.offers(), message: 'ok' }), ok.postbacks(noServer), ok.income()]);
    expect(outcomes(vs)).toEqual({ 'AFF-ENVELOPE-SERVER': 'fail 1', 'AFF-ENVELOPE-MESSAGE-NULL': 'fail 0' });
    expect(messages(vs['AFF-ENVELOPE-MESSAGE-NULL'])).toEqual(['message is "ok" in a 200 answer']);
    expect(messages(vs['AFF-ENVELOPE-SERVER'])[0]).toMatch(/server.*\(the 200 answer breaks schema affiliate\/envelope\)$/);
  });
  it('a success whose JSON is a bare array is judged, and breaks both', () => {
    const vs = judge('success-envelope', [ok.offers([offer])]);
    expect(outcomes(vs)).toEqual({ 'AFF-ENVELOPE-SERVER': 'fail 0', 'AFF-ENVELOPE-MESSAGE-NULL': 'fail 0' });
    expect(messages(vs['AFF-ENVELOPE-MESSAGE-NULL'])).toEqual(['message is absent in a 200 answer']);
  });
  it('only refusals, and successes to requests without the key: untested', () => {
    const vs = judge('success-envelope', [get('/offers', {}, refusal(401), 401, false), get('/offers', {}, { data: 1 }, 200, false)]);
    expect(outcomes(vs)).toEqual({ 'AFF-ENVELOPE-SERVER': 'untested', 'AFF-ENVELOPE-MESSAGE-NULL': 'untested' });
    expect(new Set(Object.values(lacking(vs)))).toEqual(new Set(['no success (200 or 201) to a request with the key was recorded']));
  });
});

describe('answer-shapes', () => {
  const PASSED = { 'AFF-AUTOLOGIN-SHAPE': 'pass 1', 'AFF-OFFERS-SHAPE': 'pass 1', 'AFF-LEADS-SHAPE': 'pass 2', 'AFF-CONVERSIONS-SHAPE': 'pass 1', 'AFF-INCOME-SHAPE': 'pass 1', 'AFF-POSTBACKS-SHAPE': 'pass 3' };
  it('each read operation\'s success in its shape: passed, lists counted by their records, the others by answers', () => {
    expect(outcomes(judge('answer-shapes', ALL_READS))).toEqual(PASSED);
  });
  /** Each read operation's answer with one field of its shape broken (the envelope kept), and the path the finding names. */
  const BROKEN: [string, keyof typeof ok, () => Record<string, unknown>, RegExp][] = [
    ['AFF-OFFERS-SHAPE', 'offers', () => ({ ...BODIES.offers(), data: { items: [{ ...offer, id: '1' }], page: 1, totalItems: 1 } }), /items\/0\/id|items\[0\]\.id/],
    ['AFF-LEADS-SHAPE', 'leads', () => ({ ...BODIES.leads(), total: { items: '2' } }), /total/],
    ['AFF-CONVERSIONS-SHAPE', 'conversions', () => ({ ...BODIES.conversions(), total: { items: 1 } }), /total/],
    ['AFF-INCOME-SHAPE', 'income', () => ({ ...BODIES.income(), income: '3.00' }), /income/],
    ['AFF-AUTOLOGIN-SHAPE', 'autologin', () => ({ ...BODIES.autologin(), details: { url: 'https://broker.test/login', parameters: [], fragment: null, method: 'PUT' } }), /method/],
    ['AFF-POSTBACKS-SHAPE', 'postbacks', () => ({ ...BODIES.postbacks(), items: [{ ...postback, amount: '10' }] }), /amount/],
  ];
  for (const [id, op, body, path] of BROKEN) {
    it(`${op}: an answer breaking its schema fails ${id} alone, on that entry, naming the field and the schema`, () => {
      const vs = judge('answer-shapes', [...ALL_READS, ok[op](body())]);
      expect(outcomes(vs)).toEqual({ ...PASSED, [id]: 'fail 6' });
      const found = messages(vs[id]);
      expect(found.length).toBeGreaterThan(0);
      for (const m of found) expect(m).toMatch(/\(the 200 answer breaks schema affiliate\/[a-z-]+\)$/);
      expect(found.join('\n')).toMatch(path);
    });
  }
  it('a 201 of a read operation is judged on its success\'s schema; a bare array answered is judged too', () => {
    const vs = judge('answer-shapes', [ok.income({ ...BODIES.income(), cost: null }, 201), ok.leads([lead('L1')])]);
    expect(outcomes(vs)).toMatchObject({ 'AFF-INCOME-SHAPE': 'fail 0', 'AFF-LEADS-SHAPE': 'fail 1' });
    expect(messages(vs['AFF-INCOME-SHAPE'])[0]).toMatch(/cost.*\(the 201 answer breaks schema affiliate\/income\)$/);
  });
  it('no success of an operation, a list with no records, a refusal: untested with the reason', () => {
    const vs = judge('answer-shapes', [ok.leads(BODIES.leads([])), get('/income', { fromDate: FROM }, refusal(), 400), get('/offers', {}, BODIES.offers(), 200, false)]);
    expect(outcomes(vs)).toEqual(Object.fromEntries(Object.keys(PASSED).map((id) => [id, 'untested'])));
    expect(lacking(vs)).toEqual({
      'AFF-AUTOLOGIN-SHAPE': 'no success of autologin was recorded',
      'AFF-OFFERS-SHAPE': 'no success of offers was recorded',
      'AFF-LEADS-SHAPE': 'no leads record was recorded in a success',
      'AFF-CONVERSIONS-SHAPE': 'no conversions record was recorded in a success',
      'AFF-INCOME-SHAPE': 'no success of income was recorded',
      'AFF-POSTBACKS-SHAPE': 'no postbacks record was recorded in a success',
    });
  });
});

describe('lead-records', () => {
  it('flags "0"/"1" and 0/1, IDs of their own: passed, FLAGS counting leads, UNIQUE counting lists of two or more', () => {
    const vs = judge('lead-records', [ok.leads(), ok.leads(BODIES.leads([lead('L1'), lead('L2'), lead('L3', { isSmartClick: '1' })])), ok.leads(BODIES.leads([lead('L1')]))]);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-FLAGS': 'pass 6', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'pass 2' });
  });
  it('isSmartClick 1 (a number) or "2", hasFTD "1" or absent fail FLAGS alone, on the list that holds them, naming the lead', () => {
    const { hasFTD: _dropped, ...noFtd } = lead('L4');
    const bad = BODIES.leads([lead('L1'), lead('L2', { isSmartClick: 1 }), lead('L3', { isSmartClick: '2', hasFTD: '1' }), noFtd]);
    const vs = judge('lead-records', [ok.leads(), ok.leads(bad)]);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-FLAGS': 'fail 1,1,1,1', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'pass 2' });
    expect(messages(vs['AFF-LEADS-FLAGS'])).toEqual([
      'items[1].isSmartClick is 1, not the string "0" or "1"',
      'items[2].isSmartClick is "2", not the string "0" or "1"',
      'items[2].hasFTD is "1", not the integer 0 or 1',
      'items[3].hasFTD is absent, not the integer 0 or 1',
    ]);
  });
  it('a flag the schema allows but FLAGS does not (hasFTD 2) fails FLAGS and not the shape', () => {
    const entries = [ok.leads(BODIES.leads([lead('L1'), lead('L2', { hasFTD: 2 })]))];
    expect(outcomes(judge('lead-records', entries))).toEqual({ 'AFF-LEADS-FLAGS': 'fail 0', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'pass 1' });
    expect(outcomes(judge('answer-shapes', entries))['AFF-LEADS-SHAPE']).toBe('pass 2');
  });
  it('two leads of one list with one leadRequestIDEncoded fail UNIQUE alone, naming both', () => {
    const vs = judge('lead-records', [ok.leads(), ok.leads(BODIES.leads([lead('L1'), lead('L2'), lead('L1')]))]);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-FLAGS': 'pass 5', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'fail 1' });
    expect(messages(vs['AFF-LEADS-ID-ENCODED-UNIQUE'])).toEqual(['items[0] and items[2] both carry leadRequestIDEncoded "L1"']);
  });
  it('no lead recorded (empty lists, a refusal, a list without the key); one lead per list: untested with the reason', () => {
    const vs = judge('lead-records', [ok.leads(BODIES.leads([])), get('/leads', { toDate: TO }, refusal(), 400), get('/leads', DATES, BODIES.leads([lead('L1', { hasFTD: 5 })]), 200, false)]);
    expect(outcomes(vs)).toEqual({ 'AFF-LEADS-FLAGS': 'untested', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'untested' });
    expect(lacking(vs)).toEqual({ 'AFF-LEADS-FLAGS': 'no lead was recorded in a lead list', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'no recorded lead list holds two leads' });
    expect(outcomes(judge('lead-records', [ok.leads(BODIES.leads([lead('L1')]))]))).toEqual({ 'AFF-LEADS-FLAGS': 'pass 1', 'AFF-LEADS-ID-ENCODED-UNIQUE': 'untested' });
  });
});
