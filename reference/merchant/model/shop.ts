import { AccountSettings } from './account-settings.js';
import { ConversionSources } from './conversion-sources.js';
import { Datafeeds } from './datafeeds.js';
import { DeliveryTimes } from './delivery-times.js';
import type { IdSequence } from './ids.js';
import { asObject, copy, isoTime, text, texts, type Json } from './json.js';
import { Products } from './products.js';
import { Checkout, RegionalProgram } from './programs.js';
import { Records } from './records.js';

/**
 * Everything one account owns (001 D, the groups below `/{merchantId}/...`): its catalog
 * content, settings and programs. The catalog holds one per account, made when first used.
 */
export class Shop {
  readonly collections = new Records('id');
  readonly conversionSources: ConversionSources;
  readonly datafeeds: Datafeeds;
  readonly products: Products;
  readonly deliveryTimes = new DeliveryTimes();
  readonly promotions = new Records('id');
  readonly regions = new Records('regionId');
  readonly returnAddresses = new Records('returnAddressId');
  readonly returnPolicies = new Records('returnPolicyId');
  readonly onlineReturnPolicies = new Records('returnPolicyId');
  /** Point-of-sale stores of this account as the target merchant, keyed by storeCode. */
  readonly stores = new Records('storeCode');
  readonly orderTrackingSignals = new Records('orderTrackingSignalId');
  readonly returnCarriers = new Records('carrierAccountId');
  readonly settings: AccountSettings;
  readonly freeListings = new RegionalProgram(['US']);
  readonly shoppingAds = new RegionalProgram(['US']);
  readonly checkout: Checkout;
  private readonly collectionTimes = new Map<string, { created: number; updated: number }>();
  private pubsub: Json = {};
  private readonly calls = new Map<string, number>();
  private readonly responseTokens = new Set<string>();

  constructor(
    readonly accountId: string,
    private readonly ids: IdSequence,
    private readonly now: () => number,
  ) {
    this.conversionSources = new ConversionSources(ids);
    this.datafeeds = new Datafeeds(ids, now);
    this.products = new Products(ids, now);
    this.settings = new AccountSettings(accountId);
    this.checkout = new Checkout(accountId);
  }

  /** Stores an item of a collection whose ID the service assigns (the body's own ID is ignored). */
  insertAssigned(records: Records, body: unknown, extra: Json = {}): Json {
    const b = copy(asObject(body));
    delete b[records.idField];
    return records.put(this.ids.next(), { ...b, ...extra });
  }

  /** A collection's ID is the caller's (`body.id`); uploading the same ID again replaces it. */
  putCollection(body: unknown): Json {
    const b = asObject(body);
    const id = text(b['id']) ?? this.ids.next();
    const at = this.now();
    this.collectionTimes.set(id, { created: this.collectionTimes.get(id)?.created ?? at, updated: at });
    return this.collections.put(id, b);
  }

  removeCollection(id: string): boolean {
    this.collectionTimes.delete(id);
    return this.collections.remove(id);
  }

  collectionStatus(id: string): Json | undefined {
    const t = this.collectionTimes.get(id);
    if (!this.collections.has(id) || !t) return undefined;
    return { id, creationDate: isoTime(t.created), lastUpdateDate: isoTime(t.updated), destinationStatuses: [{ destination: 'Shopping', status: 'approved' }], collectionLevelIssuses: [] };
  }

  /**
   * Inserts a promotion under its REST ID, `<channel>:<contentLanguage>:<targetCountry>:
   * <promotionId>` as the real API forms it (the channel from redemptionChannel); the same ID
   * again replaces it.
   */
  putPromotion(body: unknown): Json {
    const b = copy(asObject(body));
    const channels = texts(b['redemptionChannel']);
    const channel = channels.includes('IN_STORE') ? (channels.includes('ONLINE') ? 'online_in_store' : 'in_store') : 'online';
    const promotionId = text(b['promotionId']) ?? `promo${this.ids.next()}`;
    const id = [channel, text(b['contentLanguage']) ?? 'en', text(b['targetCountry']) ?? 'US', promotionId].join(':');
    const at = isoTime(this.now());
    return this.promotions.put(id, { ...b, promotionId, promotionStatus: { destinationStatuses: [{ destination: 'FREE_LISTINGS', status: 'PENDING' }], creationDate: at, lastUpdateDate: at } });
  }

  /** A region's ID is the caller's when given (query `regionId` or the body), else assigned. */
  createRegion(body: unknown, regionId: string | undefined): Json {
    const b = copy(asObject(body));
    const id = regionId ?? text(b['regionId']) ?? this.ids.next();
    return this.regions.put(id, { ...b, merchantId: this.accountId, regionalInventoryEligible: true, shippingEligible: true });
  }

  /** A store's ID is the caller's `storeCode`; inserting the same code again replaces it. */
  putStore(body: unknown): Json {
    const b = asObject(body);
    return this.stores.put(text(b['storeCode']) ?? this.ids.next(), { ...b, kind: 'content#posStore' });
  }

  pubsubSettings(): Json {
    return { ...copy(this.pubsub), kind: 'content#pubsubNotificationSettings' };
  }

  /** Replaces the notification settings (PUT). */
  setPubsubSettings(body: unknown): Json {
    this.pubsub = copy(asObject(body));
    return this.pubsubSettings();
  }

  /** Counts one call of an operation, for quotas.list. */
  recordCall(method: string): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
  }

  /** Daily quota and usage of each method this account has called. */
  quotas(): Json[] {
    return [...this.calls.entries()].map(([method, used]) => ({ method, quotaUsage: String(used), quotaLimit: '100000', quotaMinuteLimit: '1000' }));
  }

  /** A set of recommendations and the token that reports interactions on them. */
  recommend(): Json {
    const responseToken = `rt-${this.ids.next()}`;
    this.responseTokens.add(responseToken);
    return {
      responseToken,
      recommendations: [{ type: 'PRODUCT_DATA', subType: 'ADD_IMAGES', title: 'Add images to your products', recommendationName: `recommendations/${responseToken}`, paid: false }],
    };
  }

  /** True when the token came from recommend. */
  knowsResponseToken(token: string | undefined): boolean {
    return token !== undefined && this.responseTokens.has(token);
  }

  /** Report rows of a search: one row per product, with its offer and zero metrics. */
  report(): Json[] {
    return this.products.list().map((p) => ({ segments: { offerId: p['offerId'], title: p['title'] ?? '' }, metrics: { clicks: '0', impressions: '0' } }));
  }
}
