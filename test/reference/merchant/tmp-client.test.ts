import { it, expect } from 'vitest';
import { content_v2_1 } from '@googleapis/content';
import { startMerchantServer } from '../../../reference/merchant/server/server.js';
it('client', async () => {
  const s = await startMerchantServer({});
  try {
    const c = new content_v2_1.Content({ rootUrl: `${s.url}/`, auth: 'key' } as never);
    const m = s.merchantId;
    const auth = await c.accounts.authinfo();
    console.log(auth.status, auth.data);
    const p = await c.products.insert({ merchantId: m, requestBody: { offerId: 'sku1', title: 'T', contentLanguage: 'en', targetCountry: 'US', channel: 'online' } });
    console.log(p.status, p.data.id);
    const u = await c.products.update({ merchantId: m, productId: p.data.id ?? '', requestBody: { title: 'U' } });
    console.log(u.status, u.data.title);
    const cs = await c.conversionsources.create({ merchantId: m, requestBody: { merchantCenterDestination: { displayName: 'x', currencyCode: 'USD' } } });
    const d = await c.conversionsources.delete({ merchantId: m, conversionSourceId: cs.data.conversionSourceId ?? '' });
    console.log(d.status, d.data);
    const un = await c.conversionsources.undelete({ merchantId: m, conversionSourceId: cs.data.conversionSourceId ?? '', requestBody: {} });
    console.log(un.status, un.data);
    const b = await c.products.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: m, method: 'get', productId: p.data.id }] } });
    console.log(b.status, JSON.stringify(b.data));
    const del = await c.products.delete({ merchantId: m, productId: p.data.id ?? '' });
    console.log(del.status, del.data);
    const lbl = await c.accounts.labels.create({ accountId: m, requestBody: { name: 'L' } });
    console.log(lbl.status, lbl.data);
    const ll = await c.accounts.labels.list({ accountId: m });
    console.log(ll.status, ll.data);
    try { await c.products.get({ merchantId: m, productId: p.data.id ?? '' }); } catch (e) { console.log('err', (e as { code?: number; message?: string }).code, (e as Error).message); }
    expect(auth.status).toBe(200);
  } finally { await s.stop(); }
});
