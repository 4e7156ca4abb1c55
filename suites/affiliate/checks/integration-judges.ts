import { isCredentialHeader } from '../../../src/targets/har/recording.js';
import { isIP } from 'node:net';
import { PASS, fail, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import type { Exchange } from '../../../src/engine/model.js';
import { cutTail, cutText } from '../../../src/targets/text-cut.js';
import type { ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import { targetPairs } from '../../../reference/affiliate/model/autologin.js';
import { REQUIRED_FIELDS } from '../../../reference/affiliate/model/registration.js';
import { REFUSAL_MESSAGE, VISITOR } from './integration-scenarios.js';
import type { IntegrationRun } from './integration-run.js';
import type { LandingHit } from './integration-landing.js';

/** The registration path of specgate's default layout (the integration contract names it). */
const REGISTER_PATH = '/api/v2/leads';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const pathOf = (url: string): string => new URL(url, 'http://platform.invalid').pathname;
const mediaType = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).split(';')[0]?.trim().toLowerCase() ?? '';

/** The report's view of one platform exchange; the key is shown by name only. */
function exchangeOf(x: ProxiedExchange): Exchange {
  const headers = Object.fromEntries(Object.entries(x.requestHeaders).map(([k, v]) => [k, isCredentialHeader(k) ? '<redacted>' : cutText(Array.isArray(v) ? v.join(', ') : (v ?? ''), 200)]));
  return { kind: 'http', summary: `${x.method} ${x.url} -> ${x.status}`, request: { method: x.method, url: x.url, headers, body: cutText(x.requestBody, 500) }, response: { status: x.status, body: cutText(x.responseBody, 500) } };
}

/** Why nothing can be judged when the integration never served the browser, or undefined. */
function absent(run: IntegrationRun): string | undefined {
  if (run.visit) return undefined;
  return `${run.problem ?? 'the browser visited nothing'}; stderr: ${cutTail(run.finished.stderr, 300) || 'empty'}`;
}

function where(run: IntegrationRun): string {
  const v = run.visit;
  if (!v) return '';
  return ` (the browser ended at ${v.finalUrl}${v.problem ? `; ${v.problem}` : ''}${v.text ? `; the page says: ${cutText(v.text.replace(/\s+/g, ' ').trim(), 200)}` : ''})`;
}

/** The registrations the integration sent: POSTs to the registration path. */
const registrations = (run: IntegrationRun): ProxiedExchange[] => run.exchanges.filter((x) => x.method === 'POST' && pathOf(x.url) === REGISTER_PATH);

function redirectUrlOf(x: ProxiedExchange): string | undefined {
  try {
    const url = (JSON.parse(x.responseBody) as { details?: { redirect?: { url?: unknown } } }).details?.redirect?.url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The browser arrived at the `redirect.url` of a registration the platform answered `status`. */
function arrivesAtRedirect(status: number): Judge<IntegrationRun> {
  return (run) => {
    const gone = absent(run);
    if (gone) return unjudged(gone);
    const sent = registrations(run);
    if (!sent.length) return unjudged(`the integration registered no lead (it sent ${run.exchanges.length} other platform requests)${where(run)}`);
    const accepted = sent.find((x) => x.status === status);
    if (!accepted) return unjudged(`the platform answered no registration with ${status} (it answered ${sent.map((x) => x.status).join(', ')}), so nothing shows what the integration does then`);
    const want = redirectUrlOf(accepted);
    if (!want) return unjudged(`the ${status} registration answer carries no redirect.url`);
    const got = run.visit?.finalUrl ?? '';
    if (new URL(want).href === got) return PASS;
    return fail(`after a registration answered ${status}, the browser ended at ${got}, not at redirect.url ${want}${where(run)}`, { expected: want, actual: got, exchange: exchangeOf(accepted) });
  };
}

const keySeen = (text: string, key: string): boolean => key !== '' && text.includes(key);

/** AFF-INT-KEY-SERVER-SIDE: the key never reaches the browser, and the browser never calls the platform. */
function keyServerSide(run: IntegrationRun): Verdict {
  const gone = absent(run);
  if (gone) return unjudged(gone);
  const v = run.visit;
  if (!v) return unjudged('no visit');
  const problems: string[] = [];
  for (const r of v.requests) {
    if (r.headers['api-key'] !== undefined) problems.push(`the browser sent Api-Key with ${r.method} ${r.url}`);
    else if (run.platformOrigins.includes(new URL(r.url).origin)) problems.push(`the browser called the platform: ${r.method} ${r.url}`);
    else if (keySeen(r.url, run.apiKey) || keySeen(r.postData ?? '', run.apiKey)) problems.push(`the browser sent the key's value in ${r.method} ${r.url}`);
  }
  for (const r of v.responses) {
    if (keySeen(r.body, run.apiKey) || Object.values(r.headers).some((h) => keySeen(h, run.apiKey))) problems.push(`the key's value is in the answer of ${r.url} (status ${r.status})`);
  }
  if (!problems.length) return PASS;
  return fail(`the key does not stay server-side: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; ...' : ''}`, { actual: problems.slice(0, 20) });
}

/**
 * The platform requests the integration sent itself: every request that reached the platform but
 * those the browser made (a browser's call to the platform is AFF-INT-KEY-SERVER-SIDE's to judge):
 * the requests the browser is recorded making there, and the CORS preflights it sends ahead of
 * them (which no page event reports).
 */
function serverSideExchanges(run: IntegrationRun): ProxiedExchange[] {
  const fromBrowser = (run.visit?.requests ?? []).filter((r) => run.platformOrigins.includes(new URL(r.url).origin)).map((r) => {
    const u = new URL(r.url);
    return `${u.pathname}${u.search}`;
  });
  const preflight = (x: ProxiedExchange): boolean => x.method === 'OPTIONS' && x.requestHeaders['access-control-request-method'] !== undefined;
  return run.exchanges.filter((x) => {
    if (preflight(x)) return false;
    const i = fromBrowser.indexOf(x.url);
    if (i < 0) return true;
    fromBrowser.splice(i, 1);
    return false;
  });
}

/** AFF-INT-KEY-HEADER: every platform request the integration sends carries Api-Key with the key. */
function keyHeader(run: IntegrationRun): Verdict {
  const sent = serverSideExchanges(run);
  if (!sent.length) return unjudged(`the integration sent the platform no request${where(run)}${absent(run) ? `; ${absent(run) ?? ''}` : ''}`);
  const bad = sent.filter((x) => x.requestHeaders['api-key'] !== run.apiKey);
  const first = bad[0];
  if (!first) return PASS;
  const why = (x: ProxiedExchange): string => `${x.method} ${x.url}: ${x.requestHeaders['api-key'] === undefined ? 'no Api-Key' : 'Api-Key is not the key it was given'}`;
  return fail(`${bad.length} of ${sent.length} platform requests break the rule: ${bad.slice(0, 5).map(why).join('; ')}`, { actual: bad.slice(0, 20).map(why), exchange: exchangeOf(first) });
}

/** AFF-INT-REGISTER-FORM: form-encoded, with the required fields (what the visitor typed, and an IP address). */
function registerForm(run: IntegrationRun): Verdict {
  const sent = registrations(run);
  if (!sent.length) return unjudged(`the integration registered no lead${where(run)}${absent(run) ? `; ${absent(run) ?? ''}` : ''}`);
  const bad = sent.flatMap((x) => {
    const type = mediaType(x.requestHeaders['content-type']);
    if (type !== FORM_TYPE) return [{ x, why: `content type "${type || 'none'}", not ${FORM_TYPE}` }];
    const form = new URLSearchParams(x.requestBody);
    const problems: string[] = [];
    for (const name of REQUIRED_FIELDS) if (!form.get(name)?.trim()) problems.push(`no ${name}`);
    for (const [name, typed] of Object.entries(VISITOR)) {
      const got = form.get(name);
      if (got !== null && got.trim() !== '' && got !== typed) problems.push(`${name} is ${JSON.stringify(got)}, the visitor typed ${JSON.stringify(typed)}`);
    }
    const ip = form.get('ip');
    if (ip && isIP(ip) === 0) problems.push(`ip ${JSON.stringify(ip)} is not an IP address`);
    return problems.length ? [{ x, why: problems.join(', ') }] : [];
  });
  const first = bad[0];
  if (!first) return PASS;
  return fail(`${bad.length} of ${sent.length} registrations break the rule: ${bad.slice(0, 3).map((b) => `${b.x.method} ${b.x.url}: ${b.why}`).join('; ')}`, { actual: bad.map((b) => b.why), exchange: exchangeOf(first.x) });
}

/** AFF-INT-ERROR-TEXT: a refused registration's messages[0] is in the page, as text. */
function errorText(run: IntegrationRun): Verdict {
  const gone = absent(run);
  if (gone) return unjudged(gone);
  const refused = registrations(run).find((x) => x.status !== 200 && x.status !== 201);
  if (!refused) return unjudged(`the platform refused no registration of the integration's${where(run)}`);
  const text = (run.visit?.text ?? '').replace(/\s+/g, ' ');
  if (text.includes(REFUSAL_MESSAGE)) return PASS;
  return fail(`the registration was refused with messages[0] ${JSON.stringify(REFUSAL_MESSAGE)}, but the page does not show it${where(run)}`, { expected: REFUSAL_MESSAGE, actual: cutText(text, 500), exchange: exchangeOf(refused) });
}

/** The pairs a landing request carried: its query and its form fields. */
const carried = (hit: LandingHit): Array<[string, string]> => [...hit.query, ...hit.form];
const hasAll = (got: Array<[string, string]>, want: Array<[string, string]>): boolean => want.every(([n, v]) => got.some(([gn, gv]) => gn === n && gv === v));

/** Requests that reached the target's path on the landing server. */
function targetHits(run: IntegrationRun): LandingHit[] {
  const t = run.target;
  if (!t) return [];
  const path = new URL(t.url).pathname;
  return run.landings.filter((h) => h.path === path);
}

/** A judge of the autologin hand-over: `ok` says what is wrong with one request at the target, or undefined. */
function autologinJudge(applies: (run: IntegrationRun) => string | undefined, ok: (hit: LandingHit, want: Array<[string, string]>) => string | undefined): Judge<IntegrationRun> {
  return (run) => {
    const gone = absent(run);
    if (gone) return unjudged(gone);
    const t = run.target;
    if (!t) return unjudged('the case visits no autologin target');
    const not = applies(run);
    if (not) return unjudged(not);
    const want = targetPairs(t);
    const hits = targetHits(run);
    if (!hits.length) return fail(`the browser never reached the target ${t.method} ${t.url}${where(run)}`, { expected: `${t.method} ${t.url}`, actual: run.landings.map((h) => `${h.method} ${h.path}`) });
    const whys = hits.map((h) => ok(h, want));
    if (whys.some((w) => w === undefined)) return PASS;
    return fail(`the browser reached ${t.url} but ${whys[0] ?? ''}`, { expected: { method: t.method, parameters: want }, actual: hits.map((h) => ({ method: h.method, query: h.query, form: h.form, contentType: h.contentType })) });
  };
}

const missingOf = (got: Array<[string, string]>, want: Array<[string, string]>): string =>
  want
    .filter(([n, v]) => !got.some(([gn, gv]) => gn === n && gv === v))
    .map(([n]) => n)
    .join(', ');

/** AFF-INT-FRAGMENT: the final URL ends with `#fragment` when the fragment is a string, with none when null. */
function fragment(run: IntegrationRun): Verdict {
  const gone = absent(run);
  if (gone) return unjudged(gone);
  const t = run.target;
  if (!t) return unjudged('the case visits no autologin target');
  const final = run.visit?.finalUrl ?? '';
  if (!final.startsWith(run.landingOrigin)) return unjudged(`the browser never arrived at the target, so no fragment shows${where(run)}`);
  const got = new URL(final).hash;
  const want = t.fragment === null ? '' : `#${t.fragment}`;
  if (got === want) return PASS;
  return fail(t.fragment === null ? `the fragment is null, but the browser ended at ${final} (fragment "${got}")` : `the fragment is "${t.fragment}", but the browser ended at ${final} (${got ? `fragment "${got}"` : 'no fragment'})`, { expected: want, actual: got });
}

/** One judge per integration-side requirement, each over one case's run. */
export const INTEGRATION_JUDGES: Readonly<Record<string, Judge<IntegrationRun>>> = {
  'AFF-INT-KEY-SERVER-SIDE': keyServerSide,
  'AFF-INT-KEY-HEADER': keyHeader,
  'AFF-INT-REGISTER-FORM': registerForm,
  'AFF-INT-REDIRECT': arrivesAtRedirect(200),
  'AFF-INT-SUCCESS-201': arrivesAtRedirect(201),
  'AFF-INT-ERROR-TEXT': errorText,
  'AFF-INT-AUTOLOGIN-POST': autologinJudge(
    (run) => (run.target?.method === 'POST' ? undefined : 'the target of this case is no POST target'),
    (hit, want) => (hit.method !== 'POST' ? `with a ${hit.method}, not a form POST` : mediaType(hit.contentType) !== FORM_TYPE ? `the POST is ${hit.contentType || 'without a content type'}, not ${FORM_TYPE}` : hasAll(hit.form, want) ? undefined : `the form lacks ${missingOf(hit.form, want)}`),
  ),
  'AFF-INT-AUTOLOGIN-GET': autologinJudge(
    (run) => (run.target?.method === 'GET' ? undefined : 'the target of this case is no GET target'),
    (hit, want) => (hit.method !== 'GET' ? `with a ${hit.method}, not a GET` : hasAll(hit.query, want) ? undefined : `the query lacks ${missingOf(hit.query, want)}`),
  ),
  'AFF-INT-FRAGMENT': fragment,
  'AFF-INT-PARAMETER-SHAPES': autologinJudge(
    () => undefined,
    (hit, want) => (hasAll(carried(hit), want) ? undefined : `the parameters ${missingOf(carried(hit), want)} did not arrive`),
  ),
};
