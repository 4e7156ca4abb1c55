import { inShop, item, list, missing, noContent, ok, param, withoutId, type Handler } from '../answers.js';
import type { Records } from '../../model/records.js';
import type { Shop } from '../../model/shop.js';

/** The get/insert/list/delete of one kind of return item the service assigns IDs to. */
function returnItems(group: string, what: string, param_: string, records: (shop: Shop) => Records, listKey: string): Record<string, Handler> {
  return {
    [`${group}.delete`]: (call, ctx) =>
      inShop(call, ctx, (shop) => {
        const id = param(call, param_);
        return records(shop).remove(id) ? noContent() : missing(`${what} ${id}`);
      }),
    [`${group}.get`]: (call, ctx) => inShop(call, ctx, (shop) => item(records(shop).get(param(call, param_)), `${what} ${param(call, param_)}`)),
    [`${group}.${group === 'returnpolicyonline' ? 'create' : 'insert'}`]: (call, ctx) => inShop(call, ctx, (shop) => ok(shop.insertAssigned(records(shop), call.body))),
    [`${group}.list`]: (call, ctx) => inShop(call, ctx, (shop) => list(listKey, records(shop).list(), call.query)),
  };
}

/** returnaddress, returnpolicy, returnpolicyonline (001 D), batches aside. */
export const RETURN_HANDLERS: Record<string, Handler> = {
  ...returnItems('returnaddress', 'return address', 'returnAddressId', (s) => s.returnAddresses, 'resources'),
  ...returnItems('returnpolicy', 'return policy', 'returnPolicyId', (s) => s.returnPolicies, 'resources'),
  ...returnItems('returnpolicyonline', 'online return policy', 'returnPolicyId', (s) => s.onlineReturnPolicies, 'returnPolicies'),
  'returnpolicyonline.patch': (call, ctx) =>
    inShop(call, ctx, (shop) => item(shop.onlineReturnPolicies.merge(param(call, 'returnPolicyId'), withoutId(call.body, 'returnPolicyId')), `online return policy ${param(call, 'returnPolicyId')}`)),
};
