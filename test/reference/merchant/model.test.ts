import { describe, expect, it } from 'vitest';
import { ACTIVE, ARCHIVED, MerchantCatalog, productRestId } from '../../../reference/merchant/model/index.js';

const catalog = (): MerchantCatalog => new MerchantCatalog({ now: () => Date.UTC(2026, 0, 1) });

function value<T>(out: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!out.ok) throw new TypeError(`expected a value, got a refusal: ${out.message}`);
  return out.value;
}

describe('merchant model: accounts', () => {
  it('inserts sub-accounts under the seeded merchant, with service-assigned string IDs', () => {
    const c = catalog();
    const a = value(c.insertAccount(c.merchantId, { name: 'Sub one', websiteUrl: 'https://shop.example' }));
    expect(a).toMatchObject({ kind: 'content#account', name: 'Sub one', websiteUrl: 'https://shop.example', labelIds: [] });
    expect(typeof a['id']).toBe('string');
    expect(a['id']).not.toBe(c.merchantId);
    expect(c.accounts.subAccounts(c.merchantId).map((x) => x['id'])).toEqual([a['id']]);
    expect(c.accounts.within(c.merchantId, String(a['id']))).toBe(true);
    expect(c.insertAccount('999', { name: 'x' })).toMatchObject({ ok: false, kind: 'not-found' });
  });

  it('replaces an account on update and deletes only sub-accounts', () => {
    const c = catalog();
    const id = String(value(c.insertAccount(c.merchantId, { name: 'Old', adultContent: true }))['id']);
    const updated = value(c.updateAccount(id, { name: 'New' }));
    expect(updated).toMatchObject({ id, name: 'New' });
    expect(updated).not.toHaveProperty('adultContent');
    expect(c.deleteAccount(c.merchantId)).toMatchObject({ ok: false, kind: 'invalid' });
    expect(value(c.deleteAccount(id))).toBe(true);
    expect(c.accounts.get(id)).toBeUndefined();
    expect(c.shop(id)).toBeUndefined();
  });
});

describe('merchant model: labels', () => {
  it('creates a label assigned to no account, not even its owner', () => {
    const c = catalog();
    const sub = String(value(c.insertAccount(c.merchantId, { name: 'Sub' }))['id']);
    const label = value(c.createLabel(c.merchantId, { name: 'Vip' }));
    expect(label).toMatchObject({ accountId: c.merchantId, name: 'Vip' });
    expect(typeof label['labelId']).toBe('string');
    expect(c.accounts.get(c.merchantId)?.['labelIds']).toEqual([]);
    expect(c.accounts.get(sub)?.['labelIds']).toEqual([]);
    expect(c.labels.ownedBy(c.merchantId).map((l) => l['labelId'])).toEqual([label['labelId']]);
  });

  it('assigns existing labels with updatelabels and refuses unknown ones', () => {
    const c = catalog();
    const sub = String(value(c.insertAccount(c.merchantId, { name: 'Sub' }))['id']);
    const labelId = String(value(c.createLabel(c.merchantId, { name: 'Vip' }))['labelId']);
    expect(value(c.updateLabels(sub, { labelIds: [labelId] }))['labelIds']).toEqual([labelId]);
    expect(c.updateLabels(sub, { labelIds: ['404404'] })).toMatchObject({ ok: false, kind: 'invalid' });
    expect(c.accounts.get(sub)?.['labelIds']).toEqual([labelId]);
  });

  it('removes a deleted label from every account and CSS domain', () => {
    const c = catalog();
    const a = String(value(c.insertAccount(c.merchantId, { name: 'A' }))['id']);
    const b = String(value(c.insertAccount(c.merchantId, { name: 'B' }))['id']);
    const keep = String(value(c.createLabel(c.merchantId, { name: 'Keep' }))['labelId']);
    const gone = String(value(c.createLabel(c.merchantId, { name: 'Gone' }))['labelId']);
    value(c.updateLabels(a, { labelIds: [keep, gone] }));
    value(c.updateLabels(b, { labelIds: [gone] }));
    value(c.updateCssLabels(c.csses.groupId, c.csses.domainId, { labelIds: [gone] }));
    expect(value(c.deleteLabel(c.merchantId, gone))).toBe(true);
    expect(c.accounts.get(a)?.['labelIds']).toEqual([keep]);
    expect(c.accounts.get(b)?.['labelIds']).toEqual([]);
    expect(c.csses.get(c.csses.groupId, c.csses.domainId)?.['labelIds']).toEqual([]);
    expect(c.deleteLabel(c.merchantId, gone)).toMatchObject({ ok: false, kind: 'not-found' });
  });

  it('only the owner may patch or delete a label', () => {
    const c = catalog();
    const sub = String(value(c.insertAccount(c.merchantId, { name: 'Sub' }))['id']);
    const labelId = String(value(c.createLabel(c.merchantId, { name: 'Vip' }))['labelId']);
    expect(c.labels.patch(sub, labelId, { name: 'Other' })).toBeUndefined();
    expect(c.labels.patch(c.merchantId, labelId, { description: 'd' })).toMatchObject({ name: 'Vip', description: 'd', labelId });
    expect(c.deleteLabel(sub, labelId)).toMatchObject({ ok: false, kind: 'not-found' });
  });
});

describe('merchant model: conversion sources', () => {
  const body = { merchantCenterDestination: { displayName: 'Shop', currencyCode: 'USD', attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' } } };

  it('archives on delete, keeps the source readable, and re-enables on undelete', () => {
    const sources = catalog().shop('7000001')?.conversionSources;
    if (!sources) throw new TypeError('the seeded merchant has no shop');
    const created = sources.create('7000001', body);
    const id = String(created['conversionSourceId']);
    expect(created).toMatchObject({ state: ACTIVE, merchantCenterDestination: body.merchantCenterDestination });
    expect(value(sources.archive(id))['state']).toBe(ARCHIVED);
    expect(sources.get(id)?.['state']).toBe(ARCHIVED);
    expect(sources.list(false).map((s) => s['conversionSourceId'])).toEqual([]);
    expect(sources.list(true).map((s) => s['conversionSourceId'])).toEqual([id]);
    expect(value(sources.undelete(id))['state']).toBe(ACTIVE);
    expect(sources.get(id)?.['state']).toBe(ACTIVE);
    expect(sources.list(false).map((s) => s['conversionSourceId'])).toEqual([id]);
  });

  it('refuses delete on an archived source and undelete on an active one', () => {
    const sources = catalog().shop('7000001')?.conversionSources;
    if (!sources) throw new TypeError('the seeded merchant has no shop');
    const id = String(sources.create('7000001', body)['conversionSourceId']);
    expect(sources.undelete(id)).toMatchObject({ ok: false, kind: 'invalid' });
    value(sources.archive(id));
    expect(sources.archive(id)).toMatchObject({ ok: false, kind: 'invalid' });
    expect(sources.archive('nope')).toMatchObject({ ok: false, kind: 'not-found' });
    expect(sources.undelete('nope')).toMatchObject({ ok: false, kind: 'not-found' });
  });

  it('does not let a patch set the state', () => {
    const sources = catalog().shop('7000001')?.conversionSources;
    if (!sources) throw new TypeError('the seeded merchant has no shop');
    const id = String(sources.create('7000001', body)['conversionSourceId']);
    expect(sources.patch(id, { state: ARCHIVED, extra: 1 })).toMatchObject({ state: ACTIVE, extra: 1 });
  });
});

describe('merchant model: products and delivery times', () => {
  it('forms the REST ID from channel, language, country and offer, and replaces on re-insert', () => {
    const shop = catalog().shop('7000001');
    if (!shop) throw new TypeError('no shop');
    const p = shop.products.insert({ offerId: 'sku1', title: 'First', contentLanguage: 'en', targetCountry: 'US', channel: 'online', color: 'red' });
    expect(p['id']).toBe('online:en:US:sku1');
    expect(productRestId(p)).toBe(p['id']);
    shop.products.insert({ offerId: 'sku1', title: 'Second', contentLanguage: 'en', targetCountry: 'US', channel: 'online' });
    expect(shop.products.list()).toHaveLength(1);
    expect(shop.products.get('online:en:US:sku1')).not.toHaveProperty('color');
    expect(shop.products.get('online:en:US:sku1')?.['title']).toBe('Second');
  });

  it('merges a product update and keeps its ID; delete removes status and inventory', () => {
    const shop = catalog().shop('7000001');
    if (!shop) throw new TypeError('no shop');
    const id = String(shop.products.insert({ offerId: 'sku2', title: 'T', contentLanguage: 'en', targetCountry: 'GB', channel: 'local' })['id']);
    expect(shop.products.update(id, { description: 'D', id: 'other' })).toMatchObject({ id, title: 'T', description: 'D' });
    expect(shop.products.setLocalInventory(id, { storeCode: 's1', quantity: 3 })).toMatchObject({ kind: 'content#localInventory', storeCode: 's1' });
    expect(shop.products.status(id)).toMatchObject({ productId: id, kind: 'content#productStatus' });
    expect(shop.products.remove(id)).toBe(true);
    expect(shop.products.status(id)).toBeUndefined();
    expect(shop.products.setLocalInventory(id, { storeCode: 's1' })).toBeUndefined();
  });

  it('upserts a delivery time keyed by the product it names (object or plain string)', () => {
    const times = catalog().shop('7000001')?.deliveryTimes;
    if (!times) throw new TypeError('no shop');
    const first = value(times.upsert({ productId: { productId: 'online:en:US:sku9' }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' } }] }));
    expect(first['productId']).toEqual({ productId: 'online:en:US:sku9' });
    value(times.upsert({ productId: 'online:en:US:sku9', areaDeliveryTimes: [] }));
    expect(times.get('online:en:US:sku9')).toEqual({ productId: { productId: 'online:en:US:sku9' }, areaDeliveryTimes: [] });
    expect(times.upsert({ areaDeliveryTimes: [] })).toMatchObject({ ok: false, kind: 'invalid' });
    expect(times.remove('online:en:US:sku9')).toBe(true);
    expect(times.get('online:en:US:sku9')).toBeUndefined();
  });
});

describe('merchant model: programs and settings', () => {
  it('answers checkout settings only while enrolled', () => {
    const checkout = catalog().shop('7000001')?.checkout;
    if (!checkout) throw new TypeError('no shop');
    expect(checkout.get()).toBeUndefined();
    expect(checkout.enroll({ uriSettings: { checkoutUriTemplate: 'https://shop.example/c/{id}' } })).toMatchObject({ merchantId: '7000001', enrollmentState: 'ENROLLED' });
    expect(checkout.get()).toMatchObject({ uriSettings: { checkoutUriTemplate: 'https://shop.example/c/{id}' } });
    expect(checkout.unenroll()).toBe(true);
    expect(checkout.get()).toBeUndefined();
    expect(checkout.unenroll()).toBe(false);
  });

  it('stores pubsub settings by replacement, starting empty', () => {
    const shop = catalog().shop('7000001');
    if (!shop) throw new TypeError('no shop');
    expect(shop.pubsubSettings()).toEqual({ kind: 'content#pubsubNotificationSettings' });
    shop.setPubsubSettings({ cloudTopicName: 't1', registeredEvents: ['PRODUCT_STATUS_CHANGE'] });
    shop.setPubsubSettings({ cloudTopicName: 't2' });
    expect(shop.pubsubSettings()).toEqual({ kind: 'content#pubsubNotificationSettings', cloudTopicName: 't2' });
  });

  it('keeps each LIA country entry and changes it by the actions', () => {
    const settings = catalog().shop('7000001')?.settings;
    if (!settings) throw new TypeError('no shop');
    settings.setInventoryContact('US', 'Ann', 'ann@shop.example');
    settings.requestInventoryVerification('US');
    settings.setPosDataProvider('DE', '1001', 'ext');
    expect(settings.getLia()).toMatchObject({
      kind: 'content#liaSettings',
      accountId: '7000001',
      countrySettings: [
        { country: 'US', inventory: { inventoryVerificationContactName: 'Ann', inventoryVerificationContactEmail: 'ann@shop.example', status: 'pending' } },
        { country: 'DE', posDataProvider: { posDataProviderId: '1001', posExternalAccountId: 'ext' } },
      ],
    });
  });

  it('gives every item a copy, so callers cannot change the stored state', () => {
    const c = catalog();
    const a = c.accounts.get(c.merchantId);
    if (!a) throw new TypeError('no seeded merchant');
    a['name'] = 'changed';
    expect(c.accounts.get(c.merchantId)?.['name']).toBe('Reference Shop');
  });
});
