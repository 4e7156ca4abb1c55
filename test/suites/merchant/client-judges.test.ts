import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import { CLIENT_JUDGES, place as placeSent, sentOf, type JudgedRun } from '../../../suites/merchant/checks/client-judges.js';
import { loadedMerchantTable } from './loaded-table.js';

/** A proxied request placed as the live judges place it. */
const place = (table: ApiTable, e: ProxiedExchange): ReturnType<typeof placeSent> => placeSent(table, sentOf(e));

const x = (method: string, url: string, forwardedUrl = url): ProxiedExchange => ({ method, url, forwardedUrl, requestHeaders: {}, requestBody: '', status: 200, responseHeaders: {}, responseBody: '{}' });

describe('merchant client judges', () => {
  const table = loadedMerchantTable();

  it('places each request against the route table', () => {
    expect(place(table, x('GET', '/content/v2.1/accounts/authinfo'))).toEqual({ kind: 'ok' });
    expect(place(table, x('POST', '/content/v2.1/7/conversionsources/abc:undelete?key=k'))).toEqual({ kind: 'ok' });
    expect(place(table, x('POST', '/content/v2.1/products/batch'))).toEqual({ kind: 'ok' });
    expect(place(table, x('GET', '/content/v2/accounts/authinfo')).kind).toBe('prefix');
    expect(place(table, x('GET', '/accounts/authinfo')).kind).toBe('prefix');
    expect(place(table, x('PUT', '/content/v2.1/7/products/p1')).kind).toBe('method');
    // on a path with operations with and without a body, the body tells which one the client meant
    const withBody = (e: ProxiedExchange): ProxiedExchange => ({ ...e, requestBody: '{"offerId":"sku1"}' });
    expect(place(table, withBody(x('POST', '/content/v2.1/7/products')))).toEqual({ kind: 'ok' });
    expect(place(table, x('POST', '/content/v2.1/7/products'))).toMatchObject({ kind: 'method', why: expect.stringMatching(/carries no body, which products\.insert \(POST\) needs: .*products\.list \(GET\)/) });
    expect(place(table, x('DELETE', '/content/v2.1/7/products/p1'))).toEqual({ kind: 'ok' });
    expect(place(table, withBody(x('DELETE', '/content/v2.1/7/products/p1')))).toMatchObject({ kind: 'method', why: expect.stringMatching(/products\.update \(PATCH\)/) });
    // {id}:undelete is a path of its own, not the bare {id} of the same group
    expect(place(table, withBody(x('POST', '/content/v2.1/7/conversionsources/abc:undelete')))).toEqual({ kind: 'ok' });
    expect(place(table, x('POST', '/content/v2.1/7/products/batch')).kind).toBe('batch');
    expect(place(table, x('GET', '/content/v2.1/7/productz')).kind).toBe('route');
    // a target's own word for a neutral segment is judged as the neutral one it was mapped back to
    expect(place(table, x('GET', '/content/v2.1/7/liasettings/8/accessiblebrandaccounts', '/content/v2.1/7/liasettings/8/accessibleprofileaccounts'))).toEqual({ kind: 'ok' });
  });

  it('fails each requirement on its own kind of request only, naming the requests', () => {
    const run = (exchanges: ProxiedExchange[]): JudgedRun => ({ table, root: 'http://127.0.0.1:1', exchanges, finished: { exit: { code: 0, signal: null }, stopped: false, stdout: '', stderr: '', exchange: { kind: 'exec', summary: 'client -> exit 0' } } });
    const r = run([x('GET', '/content/v2.1/accounts/authinfo'), x('POST', '/content/v2.1/7/products/batch'), x('PUT', '/content/v2.1/7/products/p1')]);
    const verdicts = Object.fromEntries(Object.entries(CLIENT_JUDGES).map(([id, judge]) => [id, judge(r, {})]));
    expect(verdicts['MERCHANT-CLIENT-PREFIX']).toEqual({ ok: true });
    expect(verdicts['MERCHANT-CLIENT-ROUTE']).toEqual({ ok: true });
    expect(verdicts['MERCHANT-CLIENT-METHOD']).toMatchObject({ ok: false, message: expect.stringMatching(/^1 of 3 requests .*PUT \/content\/v2\.1\/7\/products\/p1/) });
    expect(verdicts['MERCHANT-CLIENT-BATCH-PATH']).toMatchObject({ ok: false, message: expect.stringMatching(/products\.custombatch is POST \/content\/v2\.1\/products\/batch/) });
    // a client that sent nothing cannot be judged
    expect(CLIENT_JUDGES['MERCHANT-CLIENT-ROUTE']?.(run([]), {})).toMatchObject({ unjudged: expect.stringMatching(/sent no request/) });
  });
});
