/**
 * `--target har:<file>` end to end on the affiliate suite (spec 001 part E), with real traffic:
 * the reference platform runs behind the recording proxy, the requests of the cases that opted
 * in (`passive: judge`) and requests the suite's passive rules judge are sent through it, then
 * the reference integration (the platform's client) signs a visitor up and hands them over, and
 * what the proxy saw is written as HAR 1.2 and judged by the CLI. Then deviations planted in the
 * recorded answers fail exactly the requirements they break.
 *
 * Needs `npm run build` (the CLI runs from dist/).
 */
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { REFERENCE_BEHAVIOUR } from '../../reference/affiliate/integration/behaviour.js';
import { integrationServer } from '../../reference/affiliate/integration/serve.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliateVars } from '../../reference/affiliate/server/reference-target.js';
import { startAffiliateServer } from '../../reference/affiliate/server/server.js';
import { startRecordingProxy } from '../../src/targets/recording-proxy.js';
import { suite } from '../../suites/affiliate/index.js';
import { answerWith, entryOf, judgeHar } from '../helpers/har-judging.js';
import { casesJudgedFromRecording, passiveStatuses } from '../helpers/passive-cases.js';
import { expectReadmeRecordingCounts } from '../helpers/recording-counts.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import type { HarEntryShape } from '../targets/har/har-builder.js';
import { proxiedToHar } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, statusMap, tempDir } from './cli.js';

const affiliate = loadedSuite(suite);
/** The requirements the suite's rules over a whole recording judge. */
const RULED = Object.values(suite.passiveRules ?? {}).flatMap((r) => r.requirements);

/**
 * What the recording below earns: the requirements of the cases that opted in, and those the
 * rules judge (the recording holds an exchange each rule reads), pass; the excluded ones are
 * excluded; every other one is untested.
 */
const EXPECTED: Record<string, string> = Object.fromEntries(Object.entries(passiveStatuses(affiliate)).map(([id, status]) => [id, status === 'untested' && RULED.includes(id) ? 'passed' : status]));

/** One request sent through the recorder: a name the tests find it by, the path and query, with or without the key. */
interface Probe {
  name: string;
  path: string;
  key: boolean;
}

/** The requests, in the order sent: each opted-in case's (several steps of one are sent as many times), then those the rules read. */
function probes(v: { from: string; to: string; lead: string }): Probe[] {
  const q = (o: Record<string, string | number>): string => `?${new URLSearchParams(Object.entries(o).map(([k, x]): [string, string] => [k, String(x)])).toString()}`;
  const times = (n: number, p: Probe): Probe[] => Array.from({ length: n }, (_, i) => ({ ...p, name: `${p.name}#${i + 1}` }));
  return [
    ...times(3, { name: 'offers', path: '/api/v2/offers', key: true }),
    ...times(3, { name: 'postbacks', path: '/api/v2/postbacks', key: true }),
    { name: 'postbacks-1000', path: `/api/v2/postbacks${q({ itemsPerPage: 1000 })}`, key: true },
    ...times(3, { name: 'leads-no-key-no-from', path: `/api/v2/leads${q({ toDate: v.to })}`, key: false }),
    { name: 'autologin-no-key-no-id', path: '/api/v2/brokers/login/details', key: false },
    ...times(2, { name: 'leads-no-from', path: `/api/v2/leads${q({ toDate: v.to })}`, key: true }),
    { name: 'autologin-no-id', path: '/api/v2/brokers/login/details', key: true },
    { name: 'offers-no-key', path: '/api/v2/offers', key: false },
    { name: 'leads', path: `/api/v2/leads${q({ fromDate: v.from, toDate: v.to, itemsPerPage: 20 })}`, key: true },
    { name: 'conversions', path: `/api/v2/conversions${q({ fromDate: v.from, toDate: v.to, itemPerPage: 20 })}`, key: true },
    { name: 'conversions-no-from', path: `/api/v2/conversions${q({ toDate: v.to })}`, key: true },
    { name: 'income', path: `/api/v2/income${q({ fromDate: v.from, toDate: v.to })}`, key: true },
    { name: 'income-no-to', path: `/api/v2/income${q({ fromDate: v.from })}`, key: true },
    { name: 'autologin', path: `/api/v2/brokers/login/details${q({ leadRequestID: v.lead })}`, key: true },
    // more successes for the rules to judge, each the ground of one planted deviation below
    ...times(2, { name: 'leads-again', path: `/api/v2/leads${q({ fromDate: v.from, toDate: v.to, itemsPerPage: 20 })}`, key: true }),
    { name: 'income-again', path: `/api/v2/income${q({ fromDate: v.from, toDate: v.to })}`, key: true },
  ];
}

interface Recorded {
  entries: Record<string, unknown>[];
  /** Probe name -> its entry. */
  at: Record<string, number>;
  apiKey: string;
}

/** Sends every probe to a fresh reference platform through the recording proxy. */
async function record(): Promise<Recorded> {
  const server = await startAffiliateServer();
  const proxy = await startRecordingProxy(server.url);
  try {
    const vars = affiliateVars(server);
    const list = probes({ from: String(vars['from_date']), to: String(vars['to_date']), lead: String(vars['lead_request_id']) });
    const at: Record<string, number> = {};
    for (const p of list) {
      at[p.name] = proxy.exchanges.length;
      await (await request(`${proxy.url}${p.path}`, { headers: p.key ? { 'api-key': server.apiKey } : {} })).body.text();
    }
    // then the reference integration, the platform's client, signs a visitor up and hands them over to autologin
    await viaIntegration(proxy.url, server.apiKey, at, () => proxy.exchanges.length, () => proxiedToHar(proxy.url, proxy.exchanges));
    return { entries: proxiedToHar(proxy.url, proxy.exchanges), at, apiKey: server.apiKey };
  } finally {
    await proxy.stop();
    await server.stop();
  }
}

/**
 * Runs the reference integration against the platform behind the proxy: a visitor submits its
 * sign-up form (the integration registers the lead, POST leads), then follows its autologin link
 * for that lead (the integration reads the lead's autologin target). Their exchanges are named
 * `integration-register` and `integration-autologin` in `at`.
 */
async function viaIntegration(platformUrl: string, apiKey: string, at: Record<string, number>, count: () => number, recorded: () => Record<string, unknown>[]): Promise<void> {
  const integration = integrationServer({ affiliateUrl: platformUrl, apiKey, port: 0 }, REFERENCE_BEHAVIOUR);
  await new Promise<void>((resolve) => integration.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(integration.address() as AddressInfo).port}`;
  try {
    at['integration-register'] = count();
    const form = new URLSearchParams({ email: 'visitor@example.test', firstName: 'Ada', lastName: 'Visitor', password: 'Visit0r!pass', phone: '+15555550123' }).toString();
    const signup = await request(`${site}/signup`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    await signup.body.text();
    if (signup.statusCode !== 303) throw new Error(`the reference integration answered the sign-up ${signup.statusCode}, not 303 to the platform's redirect`);
    const registered = bodyOf(entryOf(recorded(), at['integration-register'])) as { details?: { leadRequest?: { ID?: unknown } } };
    const lead = registered.details?.leadRequest?.ID;
    if (typeof lead !== 'string' && typeof lead !== 'number') throw new Error(`the platform's registration answer names no leadRequest.ID: ${JSON.stringify(registered)}`);
    at['integration-autologin'] = count();
    await (await request(`${site}/autologin?leadRequestID=${encodeURIComponent(String(lead))}`)).body.text();
  } finally {
    integration.closeAllConnections();
    await new Promise<void>((resolve) => integration.close(() => resolve()));
  }
}

const bodyOf = (entry: HarEntryShape): Record<string, unknown> => JSON.parse(String(entry.response.content.text)) as Record<string, unknown>;

describe('passive target: affiliate traffic recorded from the reference platform', () => {
  const tmp = tempDir('specgate-passive-affiliate-');
  let rec: Recorded;
  let reference: Awaited<ReturnType<typeof judgeHar>>;

  beforeAll(async () => {
    assertBuilt();
    rec = await record();
    reference = await judgeHar(tmp.dir, 'affiliate', 'reference', rec.entries);
  }, 60_000);
  afterAll(() => tmp.remove());

  it('the reference answers the probes whole: successes with the key and the dates, refusals otherwise', () => {
    const status = (name: string): number => entryOf(rec.entries, rec.at[name] as number).response.status;
    for (const name of ['offers#1', 'postbacks#1', 'postbacks-1000', 'leads', 'conversions', 'income', 'autologin', 'leads-again#1', 'leads-again#2', 'income-again']) expect(status(name), name).toBe(200);
    for (const name of ['leads-no-key-no-from#1', 'autologin-no-key-no-id', 'leads-no-from#1', 'autologin-no-id', 'offers-no-key', 'conversions-no-from', 'income-no-to']) expect(status(name), name).toBeGreaterThanOrEqual(400);
    // the lists the rules judge hold records, and no answer was cut by the recorder
    for (const name of ['leads', 'leads-again#1', 'conversions', 'postbacks-1000']) expect((bodyOf(entryOf(rec.entries, rec.at[name] as number))['items'] as unknown[]).length, name).toBeGreaterThanOrEqual(2);
    for (const e of rec.entries) expect(JSON.stringify(e)).not.toContain('_specgateCut');
  });

  it('the reference integration registered its visitor and read the lead’s autologin target through the same platform', () => {
    const register = entryOf(rec.entries, rec.at['integration-register'] as number) as HarEntryShape & { request: { postData?: { text?: string } } };
    expect(register.request.method).toBe('POST');
    expect(new URL(register.request.url).pathname).toBe('/api/v2/leads');
    expect(register.request.postData?.text).toContain('email=visitor%40example.test');
    expect([200, 201]).toContain(register.response.status);
    const autologin = entryOf(rec.entries, rec.at['integration-autologin'] as number);
    expect(new URL(autologin.request.url).pathname).toBe('/api/v2/brokers/login/details');
    expect(autologin.response.status).toBe(200);
    expect(rec.entries).toHaveLength((rec.at['integration-autologin'] as number) + 1);
  });

  it('judged by the CLI: the opted-in cases and the rules pass, every other requirement is untested', async () => {
    const run = reference;
    // the README's counts: what this recording of the reference integration and platform judged, what `list --passive` says a recording can settle, the gating requirements
    await expectReadmeRecordingCounts(tmp.dir, 'affiliate', run.report);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: String(rec.entries.length), matched: String(rec.entries.length) });
    expect(statusMap(run.report)).toEqual(EXPECTED);
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.outcome === 'errored' || c.outcome === 'failed').map((c) => c.id)).toEqual([]);
    const passing = cases.filter((c) => c.outcome === 'passed').map((c) => c.id).sort();
    const rules = Object.keys(suite.passiveRules ?? {}).map((n) => `passive:${n}`);
    expect(rules.length).toBeGreaterThan(0);
    expect(passing).toEqual([...casesJudgedFromRecording(affiliate), ...rules].sort());
    for (const c of cases) if (c.outcome !== 'passed') expect(c.reason, c.id).toMatch(/^passive target: /);
  });

  it('without the probes a rule reads, its requirement is untested with what the recording lacks', async () => {
    const only = rec.entries.filter((_, i) => i !== rec.at['conversions-no-from']);
    const run = await judgeHar(tmp.dir, 'affiliate', 'no-dateless-conversions', only);
    expect(run.code).toBe(0);
    expect(statusMap(run.report)).toEqual({ ...EXPECTED, 'AFF-CONVERSIONS-DATES-REQUIRED': 'untested' });
    expect(caseOf(run.report, 'passive:dates-required')).toMatchObject({ outcome: 'passed', noEvidence: { 'AFF-CONVERSIONS-DATES-REQUIRED': 'passive target: no conversions request with the key but without fromDate or toDate was recorded' } });
  });

  it('planted deviations fail exactly the requirements they break, naming the recorded entry', async () => {
    const planted = structuredClone(rec.entries);
    const at = (name: string): number => rec.at[name] as number;
    const entry = (name: string): HarEntryShape => entryOf(planted, at(name));
    // (a) an offer list answered with a message: a success's message is null
    answerWith(entry('offers#3'), 200, { ...bodyOf(entry('offers#3')), message: 'ok' });
    // (b) a postback list without the server object
    const { server: _dropped, ...noServer } = bodyOf(entry('postbacks#2'));
    answerWith(entry('postbacks#2'), 200, noServer);
    // (c) an offer list given to a request without Api-Key
    answerWith(entry('offers-no-key'), 200, bodyOf(entry('offers#1')));
    // (d) a conversion list given to a request without fromDate
    answerWith(entry('conversions-no-from'), 200, bodyOf(entry('conversions')));
    // (e) income whose server.httpCode is not its status
    const income = bodyOf(entry('income'));
    answerWith(entry('income'), 200, { ...income, server: { ...(income['server'] as object), httpCode: 201 } });
    // (f) two leads of one list with the same leadRequestIDEncoded
    const leads = bodyOf(entry('leads'));
    const items = leads['items'] as Record<string, unknown>[];
    items[1] = { ...items[1], leadRequestIDEncoded: items[0]?.['leadRequestIDEncoded'] };
    answerWith(entry('leads'), 200, leads);
    // (g) a lead list and income given to requests without fromDate, without toDate (the reference's own answers);
    // the first of the lead requests is error-text-validation's precondition, which blocks it
    const recorded = (name: string): Record<string, unknown> => bodyOf(entryOf(rec.entries, at(name)));
    answerWith(entry('leads-no-from#1'), 200, recorded('leads'));
    answerWith(entry('income-no-to'), 200, recorded('income'));
    // (h) lead flags the table's types allow but the spec does not: hasFTD 2, isSmartClick "yes"
    const flagged = recorded('leads-again#1');
    const records = flagged['items'] as Record<string, unknown>[];
    records[0] = { ...records[0], hasFTD: 2 };
    records[1] = { ...records[1], isSmartClick: 'yes' };
    answerWith(entry('leads-again#1'), 200, flagged);
    // (i) each read operation's success with one field of its shape broken, the envelope kept
    const offers = recorded('offers#2');
    answerWith(entry('offers#2'), 200, { ...offers, data: { ...(offers['data'] as object), totalItems: '3' } });
    answerWith(entry('leads-again#2'), 200, { ...recorded('leads-again#2'), total: { items: '2' } });
    answerWith(entry('conversions'), 200, { ...recorded('conversions'), total: { items: 2 } });
    answerWith(entry('income-again'), 200, { ...recorded('income-again'), cost: '0.00' });
    const autologin = recorded('autologin');
    answerWith(entry('autologin'), 200, { ...autologin, details: { ...(autologin['details'] as object), method: 'PUT' } });
    const run = await judgeHar(tmp.dir, 'affiliate', 'planted', planted);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const broken = [
      'AFF-API-KEY-REQUIRED',
      'AFF-AUTOLOGIN-SHAPE',
      'AFF-CONVERSIONS-DATES-REQUIRED',
      'AFF-CONVERSIONS-SHAPE',
      'AFF-ENVELOPE-HTTPCODE-STATUS',
      'AFF-ENVELOPE-MESSAGE-NULL',
      'AFF-ENVELOPE-SERVER',
      'AFF-INCOME-DATES-REQUIRED',
      'AFF-INCOME-SHAPE',
      'AFF-LEADS-DATES-REQUIRED',
      'AFF-LEADS-FLAGS',
      'AFF-LEADS-ID-ENCODED-UNIQUE',
      'AFF-LEADS-SHAPE',
      'AFF-OFFERS-SHAPE',
      'AFF-POSTBACKS-SHAPE',
    ];
    expect(failedRequirements(run.report)).toEqual(broken);
    expect(statusMap(run.report)).toEqual({ ...EXPECTED, ...Object.fromEntries(broken.map((id) => [id, 'failed'])) });
    // the opted-in cases fail on the steps the plants answered; the rules on the entries
    expect(caseOf(run.report, 'envelope-offers').failures.map((f) => [f.requirement, f.message])).toEqual([['AFF-ENVELOPE-MESSAGE-NULL', expect.stringContaining(`(entry ${at('offers#3')}, step 3)`)]]);
    expect(caseOf(run.report, 'envelope-postbacks').failures.map((f) => [f.requirement, f.message])).toEqual([['AFF-ENVELOPE-SERVER', expect.stringContaining(`(entry ${at('postbacks#2')}, step 2)`)]]);
    expect(caseOf(run.report, 'passive:key-required').failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`\\(entry ${at('offers-no-key')}\\): answered 200 to a request without Api-Key$`))]);
    const failuresOf = (id: string): [string | undefined, string][] => caseOf(run.report, id).failures.map((f) => [f.requirement, f.message]);
    expect(failuresOf('passive:dates-required')).toEqual([
      ['AFF-LEADS-DATES-REQUIRED', expect.stringMatching(new RegExp(`\\(entry ${at('leads-no-from#1')}\\): answered 200 to a leads request without fromDate$`))],
      ['AFF-CONVERSIONS-DATES-REQUIRED', expect.stringMatching(new RegExp(`\\(entry ${at('conversions-no-from')}\\): answered 200 to a conversions request without fromDate$`))],
      ['AFF-INCOME-DATES-REQUIRED', expect.stringMatching(new RegExp(`\\(entry ${at('income-no-to')}\\): answered 200 to a income request without toDate$`))],
    ]);
    expect(caseOf(run.report, 'passive:httpcode-status').failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`\\(entry ${at('income')}\\): server.httpCode is 201 in an answer of status 200$`))]);
    // the findings of one requirement are one failure, each finding named with its entry
    const [flags, unique] = failuresOf('passive:lead-records');
    expect(flags?.[0]).toBe('AFF-LEADS-FLAGS');
    expect(flags?.[1]).toContain(`(entry ${at('leads-again#1')}): items[0].hasFTD is 2, not the integer 0 or 1`);
    expect(flags?.[1]).toContain(`(entry ${at('leads-again#1')}): items[1].isSmartClick is "yes", not the string "0" or "1"`);
    expect(unique).toEqual(['AFF-LEADS-ID-ENCODED-UNIQUE', expect.stringMatching(new RegExp(`\\(entry ${at('leads')}\\): items\\[0\\] and items\\[1\\] both carry leadRequestIDEncoded`))]);
    // each shape broken fails on its entry, naming the schema it breaks (the postback list lost its server: (b))
    const shapes = failuresOf('passive:answer-shapes');
    const where: Record<string, string> = { 'AFF-AUTOLOGIN-SHAPE': 'autologin', 'AFF-OFFERS-SHAPE': 'offers#2', 'AFF-LEADS-SHAPE': 'leads-again#2', 'AFF-CONVERSIONS-SHAPE': 'conversions', 'AFF-INCOME-SHAPE': 'income-again', 'AFF-POSTBACKS-SHAPE': 'postbacks#2' };
    expect([...new Set(shapes.map(([id]) => id))].sort()).toEqual(Object.keys(where).sort());
    for (const [id, message] of shapes) expect(message, id).toMatch(new RegExp(`^(\\d+ failed assertions: 1\\) )?GET \\S+ \\(entry ${at(where[id as string] as string)}\\): .*\\(the 200 answer breaks schema affiliate/[a-z-]+\\)$`));
    // the opted-in case of the offer list's shape judges every offer list recorded: it fails on the one planted
    // the lead list given without fromDate is the precondition of the error text's case: it is skipped, not failed
    expect(caseOf(run.report, 'error-text-validation')).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining('AFF-LEADS-DATES-REQUIRED') });
    expect(failuresOf('offers-shape')).toEqual([['AFF-OFFERS-SHAPE', expect.stringContaining(`(entry ${at('offers#2')}`)]]);
    expect(run.stdout).not.toContain(rec.apiKey);
  });
});
