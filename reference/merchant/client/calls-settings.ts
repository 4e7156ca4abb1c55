import { batchOfOneGet, type Call } from './calls.js';

/**
 * Local-inventory-ads settings, notification settings, quotas, recommendations, reports and
 * shipping settings of the caller's own account (spec 001 D, tables "liasettings",
 * "notifications, quotas, recommendations, regions, reports" and the shippingsettings rows).
 * These change settings of an account that exists, so nothing is created or deleted.
 */
export const settingsCalls: readonly Call[] = [
  { op: 'liasettings.get', method: 'GET', path: '/{merchantId}/liasettings/{accountId}' },
  { op: 'liasettings.list', method: 'GET', path: '/{merchantId}/liasettings' },
  { op: 'liasettings.listposdataproviders', method: 'GET', path: '/liasettings/posdataproviders' },
  { op: 'liasettings.getaccessibleprofileaccounts', method: 'GET', path: '/{merchantId}/liasettings/{accountId}/accessibleprofileaccounts' },
  { op: 'liasettings.requestprofileaccess', method: 'POST', path: '/{merchantId}/liasettings/{accountId}/requestprofileaccess' },
  { op: 'liasettings.requestinventoryverification', method: 'POST', path: '/{merchantId}/liasettings/{accountId}/requestinventoryverification/{country}' },
  {
    op: 'liasettings.setinventoryverificationcontact',
    method: 'POST',
    path: '/{merchantId}/liasettings/{accountId}/setinventoryverificationcontact',
    query: { country: 'US', language: 'en', contactName: 'Reference Contact', contactEmail: 'contact@shop.example' },
  },
  { op: 'liasettings.setomnichannelexperience', method: 'POST', path: '/{merchantId}/liasettings/{accountId}/setomnichannelexperience', query: { country: 'US', lsfType: 'ghlsf' } },
  { op: 'liasettings.setposdataprovider', method: 'POST', path: '/{merchantId}/liasettings/{accountId}/setposdataprovider', query: { country: 'US' } },
  {
    op: 'liasettings.update',
    method: 'PUT',
    path: '/{merchantId}/liasettings/{accountId}',
    body: (ids) => ({ accountId: ids.accountId, countrySettings: [{ country: 'US', hostedLocalStorefrontActive: true }] }),
  },
  { op: 'liasettings.custombatch', method: 'POST', path: '/liasettings/batch', body: (ids) => batchOfOneGet(ids, { accountId: ids.accountId }) },
  { op: 'pubsubnotificationsettings.get', method: 'GET', path: '/{merchantId}/pubsubnotificationsettings' },
  {
    op: 'pubsubnotificationsettings.update',
    method: 'PUT',
    path: '/{merchantId}/pubsubnotificationsettings',
    body: () => ({ cloudTopicName: 'projects/reference/topics/merchant', registeredEvents: ['orderPendingShipment'] }),
  },
  { op: 'quotas.list', method: 'GET', path: '/{merchantId}/quotas' },
  {
    op: 'recommendations.generate',
    method: 'GET',
    path: '/{merchantId}/recommendations/generate',
    query: { languageCode: 'en-US' },
    // The interaction report names the recommendations it is about by this token.
    keep: { name: 'responseToken', from: 'responseToken' },
  },
  {
    op: 'recommendations.reportInteraction',
    method: 'POST',
    path: '/{merchantId}/recommendations/reportInteraction',
    body: (ids) => ({ type: 'PRODUCT_DATA', interactionType: 'INTERACTION_DISMISS', responseToken: ids.responseToken }),
  },
  {
    op: 'reports.search',
    method: 'POST',
    path: '/{merchantId}/reports/search',
    body: () => ({ query: 'SELECT segments.date, metrics.clicks FROM MerchantPerformanceView WHERE segments.date DURING LAST_7_DAYS', pageSize: 10 }),
  },
  { op: 'shippingsettings.get', method: 'GET', path: '/{merchantId}/shippingsettings/{accountId}' },
  { op: 'shippingsettings.list', method: 'GET', path: '/{merchantId}/shippingsettings' },
  { op: 'shippingsettings.getsupportedcarriers', method: 'GET', path: '/{merchantId}/supportedCarriers' },
  { op: 'shippingsettings.getsupportedholidays', method: 'GET', path: '/{merchantId}/supportedHolidays' },
  { op: 'shippingsettings.getsupportedpickupservices', method: 'GET', path: '/{merchantId}/supportedPickupServices' },
  {
    op: 'shippingsettings.update',
    method: 'PUT',
    path: '/{merchantId}/shippingsettings/{accountId}',
    body: (ids) => ({ accountId: ids.accountId, services: [{ name: 'Reference Standard', active: true, deliveryCountry: 'US', currency: 'USD' }] }),
  },
  { op: 'shippingsettings.custombatch', method: 'POST', path: '/shippingsettings/batch', body: (ids) => batchOfOneGet(ids, { accountId: ids.accountId }) },
];
