import { batchOfOneGet, type Call, type Ids } from './calls.js';

/**
 * Products and their statuses, point of sale, local and regional inventory, regions, support
 * issues, order tracking signals, delivery times and promotions (spec 001 D, tables "inventory,
 * support, order tracking, point of sale", "products, delivery time, promotions" and the regions
 * rows). A store, a product and a region are made first, everything that names them runs while
 * they exist, and they are deleted last.
 */
export const productCalls: readonly Call[] = [
  {
    op: 'pos.insert',
    method: 'POST',
    path: '/{merchantId}/pos/{targetMerchantId}/store',
    body: () => ({ storeCode: 'store1001', storeAddress: '1 Reference Street' }),
    // The caller names its store; a service that echoes nothing still has it under that code.
    keep: { name: 'storeCode', from: 'storeCode', otherwise: 'store1001' },
  },
  { op: 'pos.get', method: 'GET', path: '/{merchantId}/pos/{targetMerchantId}/store/{storeCode}' },
  { op: 'pos.list', method: 'GET', path: '/{merchantId}/pos/{targetMerchantId}/store' },
  {
    op: 'products.insert',
    method: 'POST',
    path: '/{merchantId}/products',
    body: () => ({ offerId: 'sku1001', title: 'Reference Product', contentLanguage: 'en', targetCountry: 'US', channel: 'online' }),
    keep: { name: 'productId', from: 'id' },
  },
  { op: 'products.get', method: 'GET', path: '/{merchantId}/products/{productId}' },
  { op: 'products.list', method: 'GET', path: '/{merchantId}/products' },
  {
    op: 'products.update',
    method: 'PATCH',
    path: '/{merchantId}/products/{productId}',
    query: { updateMask: 'title,description' },
    body: () => ({ title: 'Reference Product Renamed', description: 'updated by the reference client' }),
  },
  { op: 'products.custombatch', method: 'POST', path: '/products/batch', body: (ids) => batchOfOneGet(ids, { productId: ids.productId }) },
  { op: 'productstatuses.get', method: 'GET', path: '/{merchantId}/productstatuses/{productId}' },
  { op: 'productstatuses.list', method: 'GET', path: '/{merchantId}/productstatuses' },
  { op: 'productstatuses.custombatch', method: 'POST', path: '/productstatuses/batch', body: (ids) => batchOfOneGet(ids, { productId: ids.productId }) },
  { op: 'pos.inventory', method: 'POST', path: '/{merchantId}/pos/{targetMerchantId}/inventory', body: (ids) => ({ ...posItem(ids), quantity: '5' }) },
  { op: 'pos.sale', method: 'POST', path: '/{merchantId}/pos/{targetMerchantId}/sale', body: (ids) => ({ ...posItem(ids), quantity: '-1', saleId: 'sale1001' }) },
  { op: 'pos.custombatch', method: 'POST', path: '/pos/batch', body: (ids) => batchOfOneGet(ids, { targetMerchantId: ids.targetMerchantId, storeCode: ids.storeCode }) },
  {
    op: 'localinventory.insert',
    method: 'POST',
    path: '/{merchantId}/products/{productId}/localinventory',
    body: (ids) => ({ storeCode: ids.storeCode, availability: 'in stock', quantity: 5, price: usd('10.00') }),
  },
  { op: 'localinventory.custombatch', method: 'POST', path: '/localinventory/batch', body: (ids) => batchOfOneGet(ids, { productId: ids.productId, storeCode: ids.storeCode }) },
  {
    op: 'regions.create',
    method: 'POST',
    path: '/{merchantId}/regions',
    body: () => ({ displayName: 'Reference Region', postalCodeArea: { regionCode: 'US', postalCodes: [{ begin: '10001', end: '10099' }] } }),
    keep: { name: 'regionId', from: 'regionId' },
  },
  // renamed first, then read back: the client sees its change
  {
    op: 'regions.patch',
    method: 'PATCH',
    path: '/{merchantId}/regions/{regionId}',
    body: () => ({ displayName: 'Reference Region Renamed', postalCodeArea: { regionCode: 'US', postalCodes: [{ begin: '10001', end: '10199' }] } }),
  },
  { op: 'regions.get', method: 'GET', path: '/{merchantId}/regions/{regionId}' },
  { op: 'regions.list', method: 'GET', path: '/{merchantId}/regions' },
  {
    op: 'regionalinventory.insert',
    method: 'POST',
    path: '/{merchantId}/products/{productId}/regionalinventory',
    body: (ids) => ({ regionId: ids.regionId, availability: 'in stock', price: usd('11.00') }),
  },
  { op: 'regionalinventory.custombatch', method: 'POST', path: '/regionalinventory/batch', body: (ids) => batchOfOneGet(ids, { productId: ids.productId, regionId: ids.regionId }) },
  {
    op: 'merchantsupport.renderaccountissues',
    method: 'POST',
    path: '/{merchantId}/merchantsupport/renderaccountissues',
    query: { languageCode: 'en-US' },
    body: () => ({ contentOption: 'PRE_RENDERED_HTML' }),
  },
  {
    op: 'merchantsupport.renderproductissues',
    method: 'POST',
    path: '/{merchantId}/merchantsupport/renderproductissues/{productId}',
    query: { languageCode: 'en-US' },
    body: () => ({ contentOption: 'PRE_RENDERED_HTML' }),
  },
  {
    op: 'merchantsupport.triggeraction',
    method: 'POST',
    path: '/{merchantId}/merchantsupport/triggeraction',
    body: () => ({ actionContext: 'reference-context', actionInput: { actionFlowId: 'reference-flow', inputValues: [] } }),
  },
  {
    op: 'ordertrackingsignals.create',
    method: 'POST',
    path: '/{merchantId}/ordertrackingsignals',
    body: (ids) => ({
      orderId: 'order1001',
      orderCreatedTime: { year: 2024, month: 1, day: 15, hours: 12, timeZone: { id: 'America/New_York' } },
      deliveryRegionCode: 'US',
      deliveryPostalCode: '10001',
      lineItems: [{ lineItemId: 'line1', productId: ids.productId, quantity: '1' }],
    }),
  },
  {
    op: 'productdeliverytime.create',
    method: 'POST',
    path: '/{merchantId}/productdeliverytime',
    body: (ids) => ({
      productId: { productId: ids.productId },
      areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' }, deliveryTime: { minHandlingTimeDays: 1, maxHandlingTimeDays: 2, minTransitTimeDays: 1, maxTransitTimeDays: 5 } }],
    }),
  },
  { op: 'productdeliverytime.get', method: 'GET', path: '/{merchantId}/productdeliverytime/{productId}' },
  { op: 'productdeliverytime.delete', method: 'DELETE', path: '/{merchantId}/productdeliverytime/{productId}' },
  {
    op: 'promotions.create',
    method: 'POST',
    path: '/{merchantId}/promotions',
    body: () => ({ promotionId: 'promo1001', contentLanguage: 'en', targetCountry: 'US', longTitle: 'Reference Promotion', redemptionChannel: ['ONLINE'] }),
    keep: { name: 'promotionId', from: 'id' },
  },
  { op: 'promotions.get', method: 'GET', path: '/{merchantId}/promotions/{id}', use: { id: 'promotionId' } },
  { op: 'promotions.list', method: 'GET', path: '/{merchantId}/promotions' },
  { op: 'regions.delete', method: 'DELETE', path: '/{merchantId}/regions/{regionId}' },
  { op: 'pos.delete', method: 'DELETE', path: '/{merchantId}/pos/{targetMerchantId}/store/{storeCode}' },
  { op: 'products.delete', method: 'DELETE', path: '/{merchantId}/products/{productId}' },
];

function usd(value: string): { value: string; currency: string } {
  return { value, currency: 'USD' };
}

/** The item a point-of-sale inventory or sale event is about: the product offered in the store. */
function posItem(ids: Ids): Record<string, unknown> {
  return { storeCode: ids.storeCode, itemId: 'sku1001', targetCountry: 'US', contentLanguage: 'en', price: usd('10.00'), timestamp: '2024-01-15T12:00:00Z' };
}
