import type { HandlerContext, OperationCall } from '../answers.js';
import { inAccount, inShop, item, list, ok, option, type Answer, type Handler } from '../answers.js';
import type { Json } from '../../model/json.js';
import type { Shop } from '../../model/shop.js';

/** One entry per sub-account of the path's merchant ("settings of sub-accounts"). */
function perSubAccount(call: OperationCall, ctx: HandlerContext, key: string, kind: string, read: (shop: Shop, accountId: string) => Json | undefined): Answer {
  return inShop(call, ctx, (_shop, merchantId) => {
    const items = ctx.catalog.accounts.subAccounts(merchantId).flatMap((a): Json[] => {
      const id = String(a['id']);
      const shop = ctx.catalog.shop(id);
      const v = shop ? read(shop, id) : undefined;
      return v ? [v] : [];
    });
    return list(key, items, call.query, kind);
  });
}

/** A country an action names: the path's `{country}`, the query's or body's `country`, else US. */
const countryOf = (call: OperationCall): string => call.params['country'] ?? option(call, 'country') ?? 'US';

/** accountstatuses, accounttax, liasettings and shippingsettings (001 D), batches aside. */
export const ACCOUNT_SETTINGS_HANDLERS: Record<string, Handler> = {
  'accountstatuses.get': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => item(ctx.catalog.accountStatus(accountId), `account ${accountId}`)),
  'accountstatuses.list': (call, ctx) => perSubAccount(call, ctx, 'resources', 'content#accountstatusesListResponse', (_shop, id) => ctx.catalog.accountStatus(id)),

  'accounttax.get': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.getTax())),
  'accounttax.list': (call, ctx) => perSubAccount(call, ctx, 'resources', 'content#accounttaxListResponse', (shop) => shop.settings.getTax()),
  'accounttax.update': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.setTax(call.body))),

  'liasettings.get': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.getLia())),
  'liasettings.list': (call, ctx) => perSubAccount(call, ctx, 'resources', 'content#liasettingsListResponse', (shop) => shop.settings.getLia()),
  'liasettings.update': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.setLia(call.body))),
  'liasettings.getaccessibleprofileaccounts': (call, ctx) =>
    inAccount(call, ctx, (_shop, accountId) =>
      ok({
        kind: 'content#liasettingsGetAccessibleGmbAccountsResponse',
        accountId,
        gmbAccounts: [{ email: 'owner@shop.example', name: 'Reference Shop', type: 'business', listingCount: '1' }],
      }),
    ),
  'liasettings.listposdataproviders': () =>
    ok({
      kind: 'content#liasettingsListPosDataProvidersResponse',
      posDataProviders: [{ country: 'US', posDataProviders: [{ providerId: '1001', displayName: 'Example POS', fullName: 'Example Point of Sale Data' }] }],
    }),
  'liasettings.requestprofileaccess': (call, ctx) => inAccount(call, ctx, () => ok({ kind: 'content#liasettingsRequestGmbAccessResponse' })),
  'liasettings.requestinventoryverification': (call, ctx) =>
    inAccount(call, ctx, (shop) => {
      shop.settings.requestInventoryVerification(countryOf(call));
      return ok({ kind: 'content#liasettingsRequestInventoryVerificationResponse' });
    }),
  'liasettings.setinventoryverificationcontact': (call, ctx) =>
    inAccount(call, ctx, (shop) => {
      shop.settings.setInventoryContact(countryOf(call), option(call, 'contactName'), option(call, 'contactEmail'));
      return ok({ kind: 'content#liasettingsSetInventoryVerificationContactResponse' });
    }),
  'liasettings.setomnichannelexperience': (call, ctx) =>
    inAccount(call, ctx, (shop) => {
      const body = call.body && typeof call.body === 'object' ? (call.body as Json) : {};
      const pickup = call.query.getAll('pickupTypes');
      return ok(shop.settings.setOmnichannelExperience(countryOf(call), option(call, 'lsfType'), pickup.length ? pickup : body['pickupTypes']));
    }),
  'liasettings.setposdataprovider': (call, ctx) =>
    inAccount(call, ctx, (shop) => {
      shop.settings.setPosDataProvider(countryOf(call), option(call, 'posDataProviderId'), option(call, 'posExternalAccountId'));
      return ok({ kind: 'content#liasettingsSetPosDataProviderResponse' });
    }),

  'shippingsettings.get': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.getShipping())),
  'shippingsettings.list': (call, ctx) => perSubAccount(call, ctx, 'resources', 'content#shippingsettingsListResponse', (shop) => shop.settings.getShipping()),
  'shippingsettings.update': (call, ctx) => inAccount(call, ctx, (shop) => ok(shop.settings.setShipping(call.body))),
  'shippingsettings.getsupportedcarriers': (call, ctx) =>
    inShop(call, ctx, () =>
      ok({
        kind: 'content#shippingsettingsGetSupportedCarriersResponse',
        carriers: [
          { name: 'UPS', country: 'US', services: ['Ground', '2nd Day Air'], eddServices: ['Ground'] },
          { name: 'FedEx', country: 'US', services: ['Ground', 'Express Saver'], eddServices: [] },
        ],
      }),
    ),
  'shippingsettings.getsupportedholidays': (call, ctx) =>
    inShop(call, ctx, () =>
      ok({
        kind: 'content#shippingsettingsGetSupportedHolidaysResponse',
        holidays: [{ id: 'thanksgiving', countryCode: 'US', type: 'Thanksgiving', date: '2026-11-26', deliveryGuaranteeDate: '2026-11-25', deliveryGuaranteeHour: '17' }],
      }),
    ),
  'shippingsettings.getsupportedpickupservices': (call, ctx) =>
    inShop(call, ctx, () =>
      ok({
        kind: 'content#shippingsettingsGetSupportedPickupServicesResponse',
        pickupServices: [{ carrierName: 'UPS', country: 'US', serviceName: 'Pickup' }],
      }),
    ),
};
