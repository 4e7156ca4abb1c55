import { answer, inShop, item, list, missing, noContent, ok, param, withoutId, type Handler } from '../answers.js';

/** collections, collectionstatuses, conversionsources, csses, datafeeds, datafeedstatuses (001 D), batches aside. */
export const CONTENT_HANDLERS: Record<string, Handler> = {
  'collections.create': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.putCollection(call.body))),
  'collections.delete': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const id = param(call, 'collectionId');
      return shop.removeCollection(id) ? noContent() : missing(`collection ${id}`);
    }),
  'collections.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.collections.get(param(call, 'collectionId')), `collection ${param(call, 'collectionId')}`)),
  'collections.list': (call, ctx) => inShop(call, ctx, (shop) => list('resources', shop.collections.list(), call.query)),
  'collectionstatuses.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.collectionStatus(param(call, 'collectionId')), `collection ${param(call, 'collectionId')}`)),
  'collectionstatuses.list': (call, ctx) =>
    inShop(call, ctx, (shop) =>
      list(
        'resources',
        shop.collections.ids().flatMap((id) => shop.collectionStatus(id) ?? []),
        call.query,
      ),
    ),

  'conversionsources.create': (call, ctx) => inShop(call, ctx, (shop, merchantId) => ok(shop.conversionSources.create(merchantId, call.body))),
  // DELETE archives an active source: it stays readable, with state ARCHIVED
  'conversionsources.delete': (call, ctx) => inShop(call, ctx, (shop) => answer(shop.conversionSources.archive(param(call, 'conversionSourceId')), noContent)),
  'conversionsources.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.conversionSources.get(param(call, 'conversionSourceId')), `conversion source ${param(call, 'conversionSourceId')}`)),
  'conversionsources.list': (call, ctx) => inShop(call, ctx, (shop) => list('conversionSources', shop.conversionSources.list(call.query.get('showDeleted') === 'true'), call.query)),
  'conversionsources.patch': (call, ctx) =>
    inShop(call, ctx, (shop) => item(shop.conversionSources.patch(param(call, 'conversionSourceId'), withoutId(call.body, 'conversionSourceId')), `conversion source ${param(call, 'conversionSourceId')}`)),
  'conversionsources.undelete': (call, ctx) => inShop(call, ctx, (shop) => answer(shop.conversionSources.undelete(param(call, 'conversionSourceId')))),

  'csses.get': (call, { catalog }) => item(catalog.csses.get(param(call, 'cssGroupId'), param(call, 'cssDomainId')), `CSS domain ${param(call, 'cssDomainId')} of group ${param(call, 'cssGroupId')}`),
  'csses.list': (call, { catalog }) => {
    const domains = catalog.csses.list(param(call, 'cssGroupId'));
    return domains ? list('csses', domains, call.query) : missing(`CSS group ${param(call, 'cssGroupId')}`);
  },
  'csses.updatelabels': (call, { catalog }) => answer(catalog.updateCssLabels(param(call, 'cssGroupId'), param(call, 'cssDomainId'), call.body)),

  'datafeeds.delete': (call, ctx) =>
    inShop(call, ctx, (shop) => {
      const id = param(call, 'datafeedId');
      return shop.datafeeds.remove(id) ? noContent() : missing(`datafeed ${id}`);
    }),
  'datafeeds.fetchnow': (call, ctx) =>
    inShop(call, ctx, (shop) => (shop.datafeeds.fetchNow(param(call, 'datafeedId')) ? ok({ kind: 'content#datafeedsFetchNowResponse' }) : missing(`datafeed ${param(call, 'datafeedId')}`))),
  'datafeeds.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.datafeeds.get(param(call, 'datafeedId')), `datafeed ${param(call, 'datafeedId')}`)),
  'datafeeds.insert': (call, ctx) => inShop(call, ctx, (shop) => ok(shop.datafeeds.insert(call.body))),
  'datafeeds.list': (call, ctx) => inShop(call, ctx, (shop) => list('resources', shop.datafeeds.list(), call.query, 'content#datafeedsListResponse')),
  'datafeeds.update': (call, ctx) => inShop(call, ctx, (shop) => item(shop.datafeeds.update(param(call, 'datafeedId'), call.body), `datafeed ${param(call, 'datafeedId')}`)),
  'datafeedstatuses.get': (call, ctx) => inShop(call, ctx, (shop) => item(shop.datafeeds.status(param(call, 'datafeedId')), `datafeed ${param(call, 'datafeedId')}`)),
  'datafeedstatuses.list': (call, ctx) => inShop(call, ctx, (shop) => list('resources', shop.datafeeds.statuses(), call.query, 'content#datafeedstatusesListResponse')),
};
