import { batchOfOneGet, type Call } from './calls.js';

/**
 * Return addresses, return policies and online return policies (spec 001 D, table "return
 * addresses, return policies, shipping settings"). Each is inserted, read, listed, read again
 * in a batch where the group has one, and deleted.
 */
export const returnCalls: readonly Call[] = [
  {
    op: 'returnaddress.insert',
    method: 'POST',
    path: '/{merchantId}/returnaddress',
    body: () => ({ label: 'Reference Returns', country: 'US', phoneNumber: '+15555550101', address: { streetAddress: ['1 Reference Street'], locality: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' } }),
    keep: { name: 'returnAddressId', from: 'returnAddressId' },
  },
  { op: 'returnaddress.get', method: 'GET', path: '/{merchantId}/returnaddress/{returnAddressId}' },
  { op: 'returnaddress.list', method: 'GET', path: '/{merchantId}/returnaddress' },
  { op: 'returnaddress.custombatch', method: 'POST', path: '/returnaddress/batch', body: (ids) => batchOfOneGet(ids, { returnAddressId: ids.returnAddressId }) },
  { op: 'returnaddress.delete', method: 'DELETE', path: '/{merchantId}/returnaddress/{returnAddressId}' },
  {
    op: 'returnpolicy.insert',
    method: 'POST',
    path: '/{merchantId}/returnpolicy',
    body: () => ({ label: 'Reference Policy', name: 'Reference Policy', country: 'US', policy: { type: 'numberOfDaysAfterDelivery', numberOfDays: '30' } }),
    keep: { name: 'returnPolicyId', from: 'returnPolicyId' },
  },
  { op: 'returnpolicy.get', method: 'GET', path: '/{merchantId}/returnpolicy/{returnPolicyId}' },
  { op: 'returnpolicy.list', method: 'GET', path: '/{merchantId}/returnpolicy' },
  { op: 'returnpolicy.custombatch', method: 'POST', path: '/returnpolicy/batch', body: (ids) => batchOfOneGet(ids, { returnPolicyId: ids.returnPolicyId }) },
  { op: 'returnpolicy.delete', method: 'DELETE', path: '/{merchantId}/returnpolicy/{returnPolicyId}' },
  {
    op: 'returnpolicyonline.create',
    method: 'POST',
    path: '/{merchantId}/returnpolicyonline',
    body: () => ({ name: 'Reference Online Policy', countries: ['US'], label: 'reference', policy: { type: 'NUMBER_OF_DAYS_AFTER_DELIVERY', days: '30' } }),
    // Online policies have IDs of their own; kept apart from the return policy's above.
    keep: { name: 'onlinePolicyId', from: 'returnPolicyId' },
  },
  { op: 'returnpolicyonline.get', method: 'GET', path: '/{merchantId}/returnpolicyonline/{returnPolicyId}', use: { returnPolicyId: 'onlinePolicyId' } },
  { op: 'returnpolicyonline.list', method: 'GET', path: '/{merchantId}/returnpolicyonline' },
  {
    op: 'returnpolicyonline.patch',
    method: 'PATCH',
    path: '/{merchantId}/returnpolicyonline/{returnPolicyId}',
    use: { returnPolicyId: 'onlinePolicyId' },
    body: () => ({ name: 'Reference Online Policy Renamed', countries: ['US', 'GB'], label: 'reference' }),
  },
  { op: 'returnpolicyonline.delete', method: 'DELETE', path: '/{merchantId}/returnpolicyonline/{returnPolicyId}', use: { returnPolicyId: 'onlinePolicyId' } },
];
