import { batchOfOneGet, type Call } from './calls.js';

/**
 * Collections and their statuses, conversion sources, datafeeds and their statuses, and the
 * free-listing, checkout and shopping-ads programs (spec 001 D, tables "collections,
 * collectionstatuses, conversionsources, csses" and "datafeeds, datafeedstatuses, free listings
 * and shopping ads programs"). The conversion source goes through its two transitions
 * ("D. Conversion sources"): archived by DELETE (and read back so), re-enabled by `:undelete`.
 */
export const listingCalls: readonly Call[] = [
  {
    op: 'collections.create',
    method: 'POST',
    path: '/{merchantId}/collections',
    body: () => ({ id: 'col-reference', headline: ['Reference picks'], language: 'en' }),
    // The caller names a collection; a service that echoes nothing still has it under that ID.
    keep: { name: 'collectionId', from: 'id', otherwise: 'col-reference' },
  },
  { op: 'collections.get', method: 'GET', path: '/{merchantId}/collections/{collectionId}' },
  { op: 'collections.list', method: 'GET', path: '/{merchantId}/collections' },
  { op: 'collectionstatuses.get', method: 'GET', path: '/{merchantId}/collectionstatuses/{collectionId}' },
  { op: 'collectionstatuses.list', method: 'GET', path: '/{merchantId}/collectionstatuses' },
  { op: 'collections.delete', method: 'DELETE', path: '/{merchantId}/collections/{collectionId}' },
  {
    op: 'conversionsources.create',
    method: 'POST',
    path: '/{merchantId}/conversionsources',
    body: () => conversionSource('Reference Source'),
    keep: { name: 'conversionSourceId', from: 'conversionSourceId' },
  },
  // archived, read back archived, re-enabled: what the client then lists and renames is active again
  { op: 'conversionsources.delete', method: 'DELETE', path: '/{merchantId}/conversionsources/{conversionSourceId}' },
  { op: 'conversionsources.get', method: 'GET', path: '/{merchantId}/conversionsources/{conversionSourceId}' },
  { op: 'conversionsources.undelete', method: 'POST', path: '/{merchantId}/conversionsources/{conversionSourceId}:undelete', body: () => ({}) },
  { op: 'conversionsources.list', method: 'GET', path: '/{merchantId}/conversionsources' },
  { op: 'conversionsources.patch', method: 'PATCH', path: '/{merchantId}/conversionsources/{conversionSourceId}', body: () => conversionSource('Reference Source Renamed') },
  {
    op: 'datafeeds.insert',
    method: 'POST',
    path: '/{merchantId}/datafeeds',
    body: () => ({ name: 'Reference Feed', contentType: 'products', fileName: 'reference.xml' }),
    keep: { name: 'datafeedId', from: 'id' },
  },
  { op: 'datafeeds.get', method: 'GET', path: '/{merchantId}/datafeeds/{datafeedId}' },
  { op: 'datafeeds.list', method: 'GET', path: '/{merchantId}/datafeeds' },
  {
    op: 'datafeeds.update',
    method: 'PUT',
    path: '/{merchantId}/datafeeds/{datafeedId}',
    body: (ids) => ({ id: ids.datafeedId, name: 'Reference Feed Renamed', contentType: 'products', fileName: 'reference.xml' }),
  },
  { op: 'datafeeds.fetchnow', method: 'POST', path: '/{merchantId}/datafeeds/{datafeedId}/fetchNow' },
  { op: 'datafeeds.custombatch', method: 'POST', path: '/datafeeds/batch', body: (ids) => batchOfOneGet(ids, { datafeedId: ids.datafeedId }) },
  { op: 'datafeedstatuses.get', method: 'GET', path: '/{merchantId}/datafeedstatuses/{datafeedId}', query: { country: 'US', language: 'en' } },
  { op: 'datafeedstatuses.list', method: 'GET', path: '/{merchantId}/datafeedstatuses' },
  {
    op: 'datafeedstatuses.custombatch',
    method: 'POST',
    path: '/datafeedstatuses/batch',
    body: (ids) => batchOfOneGet(ids, { datafeedId: ids.datafeedId, country: 'US', language: 'en' }),
  },
  { op: 'datafeeds.delete', method: 'DELETE', path: '/{merchantId}/datafeeds/{datafeedId}' },
  { op: 'freelistingsprogram.get', method: 'GET', path: '/{merchantId}/freelistingsprogram' },
  { op: 'freelistingsprogram.requestreview', method: 'POST', path: '/{merchantId}/freelistingsprogram/requestreview', body: () => ({ regionCode: 'US' }) },
  {
    op: 'freelistingsprogram.checkoutsettings.insert',
    method: 'POST',
    path: '/{merchantId}/freelistingsprogram/checkoutsettings',
    body: () => ({ uriSettings: { checkoutUriTemplate: 'https://shop.example/checkout?offer={id}' } }),
  },
  { op: 'freelistingsprogram.checkoutsettings.get', method: 'GET', path: '/{merchantId}/freelistingsprogram/checkoutsettings' },
  { op: 'freelistingsprogram.checkoutsettings.delete', method: 'DELETE', path: '/{merchantId}/freelistingsprogram/checkoutsettings' },
  { op: 'shoppingadsprogram.get', method: 'GET', path: '/{merchantId}/shoppingadsprogram' },
  { op: 'shoppingadsprogram.requestreview', method: 'POST', path: '/{merchantId}/shoppingadsprogram/requestreview', body: () => ({ regionCode: 'US' }) },
];

function conversionSource(displayName: string): unknown {
  return {
    merchantCenterDestination: {
      displayName,
      currencyCode: 'USD',
      attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' },
    },
  };
}
