import { asObject, text } from '../../model/json.js';
import { failure, inShop, item, list, missing, noContent, ok, param, type Handler } from '../answers.js';

/**
 * freelistingsprogram (+checkoutsettings), shoppingadsprogram, pubsubnotificationsettings,
 * quotas, recommendations, reports, merchantsupport and ordertrackingsignals (001 D).
 */
export const PROGRAM_HANDLERS: Record<string, Handler> = {
  'freelistingsprogram.get': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.freeListings.status())),
  'freelistingsprogram.requestreview': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      shop.freeListings.requestReview(call.body);
      return ok({});
    }),
  'freelistingsprogram.checkoutsettings.delete': (call, ctx) => inShop(call, ctx, (shop, merchantId) => (shop.checkout.unenroll() ? noContent() : missing(`checkout settings of merchant ${merchantId}`))),
  'freelistingsprogram.checkoutsettings.get': (call, ctx) => inShop(call, ctx, (shop, merchantId) => item(shop.checkout.get(), `checkout settings of merchant ${merchantId}`)),
  'freelistingsprogram.checkoutsettings.insert': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.checkout.enroll(call.body))),

  'shoppingadsprogram.get': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.shoppingAds.status())),
  'shoppingadsprogram.requestreview': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      shop.shoppingAds.requestReview(call.body);
      return ok({});
    }),

  'pubsubnotificationsettings.get': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.pubsubSettings())),
  'pubsubnotificationsettings.update': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.setPubsubSettings(call.body))),

  'quotas.list': (call, ctx) => inShop(call, ctx, (shop) => list('methodQuotas', shop.quotas(), call.query)),

  'recommendations.generate': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.recommend())),
  'recommendations.reportInteraction': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const token = text(asObject(call.body)['responseToken']);
      // a report on recommendations this service never gave is refused; one naming none is a no-op
      if (token !== undefined && !shop.knowsResponseToken(token)) return failure(400, `responseToken ${token} names no generated recommendations`);
      return ok({});
    }),

  'reports.search': (call, ctx) => inShop(call, ctx, (shop) => list('results', shop.report(), call.query)),

  'merchantsupport.renderaccountissues': (call, ctx) => inShop(call, ctx, () => ok({ issues: [] })),
  'merchantsupport.renderproductissues': (call, ctx) => inShop(call, ctx, (shop) => (shop.products.has(param(call, 'productId')) ? ok({ issues: [] }) : missing(`product ${param(call, 'productId')}`))),
  'merchantsupport.triggeraction': (call, ctx) => inShop(call, ctx, () => ok({ message: 'The action was started.' })),

  'ordertrackingsignals.create': (call, ctx) => inShop(call, ctx, (shop, merchantId) => ok(shop.insertAssigned(shop.orderTrackingSignals, call.body, { merchantId }))),
};
