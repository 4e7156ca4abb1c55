import { asObject } from '../../model/json.js';
import type { Shop } from '../../model/shop.js';
import { answer, inShop, item, list, missing, noContent, ok, param, withoutId, type Answer, type Handler, type HandlerContext, type OperationCall } from '../answers.js';

/** products, productstatuses, productdeliverytime, promotions, local and regional inventory (001 D), batches aside. */
export const PRODUCT_HANDLERS: Record<string, Handler> = {
  'products.delete': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const id = param(call, 'productId');
      return shop.products.remove(id) ? noContent() : missing(`product ${id}`);
    }),
  'products.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.products.get(param(call, 'productId')), `product ${param(call, 'productId')}`)),
  'products.insert': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.products.insert(call.body))),
  'products.list': (call, ctx) => inShop(call, ctx, (shop) => list('resources', shop.products.list(), call.query, 'content#productsListResponse')),
  'products.update': (call, ctx) => inShop(call, ctx, (shop) => item(shop.products.update(param(call, 'productId'), call.body), `product ${param(call, 'productId')}`)),

  'productstatuses.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.products.status(param(call, 'productId')), `product ${param(call, 'productId')}`)),
  'productstatuses.list': (call, ctx) => inShop(call, ctx, (shop) => list('resources', shop.products.statuses(), call.query, 'content#productstatusesListResponse')),

  'productdeliverytime.create': (call, ctx) => inShop(call, ctx, (shop) => answer(shop.deliveryTimes.upsert(call.body))),
  'productdeliverytime.delete': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const id = param(call, 'productId');
      return shop.deliveryTimes.remove(id) ? noContent() : missing(`delivery time of product ${id}`);
    }),
  'productdeliverytime.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.deliveryTimes.get(param(call, 'productId')), `delivery time of product ${param(call, 'productId')}`)),

  'promotions.create': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.putPromotion(call.body))),
  'promotions.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.promotions.get(param(call, 'id')), `promotion ${param(call, 'id')}`)),
  'promotions.list': (call, ctx) => inShop(call, ctx, (shop) => list('promotions', shop.promotions.list(), call.query)),

  'localinventory.insert': (call, ctx) => inShop(call, ctx, (shop) => item(shop.products.setLocalInventory(param(call, 'productId'), call.body), `product ${param(call, 'productId')}`)),
  'regionalinventory.insert': (call, ctx) => inShop(call, ctx, (shop) => item(shop.products.setRegionalInventory(param(call, 'productId'), call.body), `product ${param(call, 'productId')}`)),

  'regions.create': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.createRegion(call.body, call.query.get('regionId') ?? undefined))),
  'regions.delete': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const id = param(call, 'regionId');
      return shop.regions.remove(id) ? noContent() : missing(`region ${id}`);
    }),
  'regions.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.regions.get(param(call, 'regionId')), `region ${param(call, 'regionId')}`)),
  'regions.list': (call, ctx) => inShop(call, ctx, (shop) => list('regions', shop.regions.list(), call.query)),
  'regions.patch': (call, ctx) => inShop(call, ctx, (shop) => item(shop.regions.merge(param(call, 'regionId'), withoutId(call.body, 'regionId')), `region ${param(call, 'regionId')}`)),
};

/**
 * pos (001 D, point of sale), batches aside: `{merchantId}` makes the call for
 * `{targetMerchantId}`, which must be the merchant itself or one of its sub-accounts; stores are
 * keyed by the caller's storeCode.
 */
export const POS_HANDLERS: Record<string, Handler> = {
  'pos.delete': (call, ctx) =>
    inTarget(call, ctx, (shop) => {
      const code = param(call, 'storeCode');
      return shop.stores.remove(code) ? noContent() : missing(`store ${code}`);
    }),
  'pos.get': (call, ctx) => inTarget(call, ctx, (shop) => item(shop.stores.get(param(call, 'storeCode')), `store ${param(call, 'storeCode')}`)),
  'pos.insert': (call, ctx) => inTarget(call, ctx, (shop) => ok(shop.putStore(call.body))),
  'pos.inventory': (call, ctx) => inTarget(call, ctx, () => ok({ ...asObject(call.body), kind: 'content#posInventoryResponse' })),
  'pos.list': (call, ctx) => inTarget(call, ctx, (shop) => list('resources', shop.stores.list(), call.query, 'content#posListResponse')),
  'pos.sale': (call, ctx) => inTarget(call, ctx, () => ok({ ...asObject(call.body), kind: 'content#posSaleResponse' })),
};

/** Runs `then` with what `{targetMerchantId}` owns, once the path's merchant may act for it. */
function inTarget(call: OperationCall, ctx: HandlerContext, then: (shop: Shop) => Answer): Answer {
  const merchantId = param(call, 'merchantId');
  const target = param(call, 'targetMerchantId');
  if (!ctx.catalog.accounts.exists(merchantId)) return missing(`merchant ${merchantId}`);
  if (!ctx.catalog.accounts.within(merchantId, target)) return missing(`target merchant ${target} of merchant ${merchantId}`);
  return inShop(call, ctx, then, 'targetMerchantId');
}
