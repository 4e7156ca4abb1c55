import { asObject } from '../../model/json.js';
import { answer, inAccount, inShop, item, list, missing, noContent, ok, ownAccount, param, withoutId, type Handler } from '../answers.js';

/** accounts.* (001 D, accounts): the caller, sub-accounts, links and phone verification. */
export const ACCOUNT_HANDLERS: Record<string, Handler> = {
  'accounts.authinfo': (_call, { catalog }) => ok(catalog.authInfo()),

  'accounts.claimwebsite': (call, ctx) =>
    inAccount(call, ctx, (_shop, accountId) => {
      ctx.catalog.accounts.claimWebsite(accountId);
      return ok({ kind: 'content#accountsClaimWebsiteResponse' });
    }),

  'accounts.delete': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => answer(ctx.catalog.deleteAccount(accountId), noContent)),

  'accounts.get': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => item(ctx.catalog.accounts.get(accountId), `account ${accountId}`)),

  'accounts.insert': (call, ctx) => inShop(call, ctx, (_shop, merchantId) => answer(ctx.catalog.insertAccount(merchantId, call.body))),

  'accounts.link': (call, ctx) =>
    inAccount(call, ctx, (_shop, accountId) => {
      ctx.catalog.accounts.link(accountId, call.body);
      return ok({ kind: 'content#accountsLinkResponse', response: 'success' });
    }),

  'accounts.list': (call, ctx) => inShop(call, ctx, (_shop, merchantId) => list('resources', ctx.catalog.accounts.subAccounts(merchantId), call.query, 'content#accountsListResponse')),

  'accounts.listlinks': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => list('links', ctx.catalog.accounts.linksOf(accountId), call.query, 'content#accountsListLinksResponse')),

  'accounts.requestphoneverification': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => ok({ verificationId: ctx.catalog.accounts.requestPhone(accountId, call.body) })),

  'accounts.update': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => answer(ctx.catalog.updateAccount(accountId, call.body))),

  'accounts.updatelabels': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => answer(ctx.catalog.updateLabels(accountId, call.body), () => ok({ kind: 'content#accountsUpdateLabelsResponse' }))),

  'accounts.verifyphonenumber': (call, ctx) => inAccount(call, ctx, (_shop, accountId) => ok({ verifiedPhoneNumber: ctx.catalog.accounts.verifyPhone(accountId, call.body) })),
};

/** accounts.credentials, accounts.labels, accounts.returncarrier: named by `/accounts/{accountId}`. */
export const ACCOUNT_PART_HANDLERS: Record<string, Handler> = {
  // the credentials are accepted and answered back; nothing in the spec reads them again
  'accounts.credentials.create': (call, ctx) => ownAccount(call, ctx, () => ok({ ...asObject(call.body) })),

  'accounts.labels.create': (call, ctx) => answer(ctx.catalog.createLabel(call.params['accountId'] ?? '', call.body)),

  'accounts.labels.delete': (call, ctx) => answer(ctx.catalog.deleteLabel(call.params['accountId'] ?? '', call.params['labelId'] ?? ''), noContent),

  // the real API's envelope key (ListAccountLabelsResponse.accountLabels)
  'accounts.labels.list': (call, ctx) => ownAccount(call, ctx, (_shop, accountId) => list('accountLabels', ctx.catalog.labels.ownedBy(accountId), call.query)),

  'accounts.labels.patch': (call, ctx) => {
    const { accountId = '', labelId = '' } = call.params;
    return item(ctx.catalog.labels.patch(accountId, labelId, call.body), `label ${labelId} of account ${accountId}`);
  },

  'accounts.returncarrier.create': (call, ctx) => ownAccount(call, ctx, (shop) => ok(shop.insertAssigned(shop.returnCarriers, call.body))),

  'accounts.returncarrier.delete': (call, ctx) =>
    ownAccount(call, ctx, (shop, accountId) => {
      const id = param(call, 'carrierAccountId');
      return shop.returnCarriers.remove(id) ? noContent() : missing(`return carrier ${id} of account ${accountId}`);
    }),

  'accounts.returncarrier.list': (call, ctx) => ownAccount(call, ctx, (shop) => list('accountReturnCarriers', shop.returnCarriers.list(), call.query)),

  'accounts.returncarrier.patch': (call, ctx) =>
    ownAccount(call, ctx, (shop, accountId) => {
      const id = param(call, 'carrierAccountId');
      return item(shop.returnCarriers.merge(id, withoutId(call.body, 'carrierAccountId')), `return carrier ${id} of account ${accountId}`);
    }),
};
