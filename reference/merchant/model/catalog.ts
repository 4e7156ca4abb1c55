import { Accounts } from './accounts.js';
import { Csses } from './csses.js';
import { IdSequence, SEEDED_CSS_DOMAIN_ID, SEEDED_CSS_GROUP_ID, SEEDED_MERCHANT_ID } from './ids.js';
import { asObject, texts, type Json } from './json.js';
import { Labels } from './labels.js';
import { done, invalid, notFound, type Outcome } from './outcome.js';
import { Shop } from './shop.js';

export interface CatalogOptions {
  /** The clock the service's timestamps come from (milliseconds since the epoch). */
  now?: () => number;
}

/**
 * The whole merchant catalog service of 001 part D, in memory: the seeded merchant (the
 * caller's own account), its sub-accounts, labels, CSS domains, and what each account owns.
 * Rules that span parts live here: a label exists before it is assigned, deleting a label
 * removes it from every account and domain, deleting a sub-account removes what it owns.
 */
export class MerchantCatalog {
  readonly ids = new IdSequence();
  readonly merchantId = SEEDED_MERCHANT_ID;
  readonly accounts = new Accounts(this.ids, SEEDED_MERCHANT_ID);
  readonly labels = new Labels(this.ids);
  readonly csses = new Csses(SEEDED_CSS_GROUP_ID, SEEDED_CSS_DOMAIN_ID);
  private readonly shops = new Map<string, Shop>();
  private readonly now: () => number;

  constructor(opts: CatalogOptions = {}) {
    this.now = opts.now ?? (() => Date.now());
  }

  /** What an account owns; undefined when the account does not exist. */
  shop(accountId: string): Shop | undefined {
    if (!this.accounts.exists(accountId)) return undefined;
    let shop = this.shops.get(accountId);
    if (!shop) {
      shop = new Shop(accountId, this.ids, this.now);
      this.shops.set(accountId, shop);
    }
    return shop;
  }

  /** authinfo: the caller is the seeded merchant's user (the spec shows no authentication). */
  authInfo(): Json {
    return { kind: 'content#accountsAuthInfoResponse', accountIdentifiers: [{ merchantId: this.merchantId }] };
  }

  insertAccount(merchantId: string, body: unknown): Outcome<Json> {
    const bad = this.unknownLabels(asObject(body)['labelIds']);
    return bad ?? this.accounts.insert(merchantId, body);
  }

  updateAccount(accountId: string, body: unknown): Outcome<Json> {
    const bad = this.unknownLabels(asObject(body)['labelIds']);
    return bad ?? this.accounts.update(accountId, body);
  }

  deleteAccount(accountId: string): Outcome<true> {
    const out = this.accounts.remove(accountId);
    if (out.ok) this.shops.delete(accountId);
    return out;
  }

  /** accounts.updatelabels: the account's labels become exactly `body.labelIds` (each must exist). */
  updateLabels(accountId: string, body: unknown): Outcome<Json> {
    const labelIds = texts(asObject(body)['labelIds']);
    const bad = this.unknownLabels(labelIds);
    if (bad) return bad;
    const account = this.accounts.setLabels(accountId, labelIds);
    return account ? done(account) : notFound(`account ${accountId} was not found`);
  }

  /** csses.updatelabels: the domain's labels become exactly `body.labelIds` (each must exist). */
  updateCssLabels(groupId: string, domainId: string, body: unknown): Outcome<Json> {
    const labelIds = texts(asObject(body)['labelIds']);
    const bad = this.unknownLabels(labelIds);
    if (bad) return bad;
    const css = this.csses.setLabels(groupId, domainId, labelIds);
    return css ? done(css) : notFound(`CSS domain ${domainId} of group ${groupId} was not found`);
  }

  /** Creates a label owned by `ownerId`, assigned to no account. */
  createLabel(ownerId: string, body: unknown): Outcome<Json> {
    if (!this.accounts.exists(ownerId)) return notFound(`account ${ownerId} was not found`);
    return done(this.labels.create(ownerId, body));
  }

  /** Deletes a label and removes it from every account and CSS domain it was assigned to. */
  deleteLabel(ownerId: string, labelId: string): Outcome<true> {
    if (!this.labels.remove(ownerId, labelId)) return notFound(`label ${labelId} of account ${ownerId} was not found`);
    this.accounts.dropLabel(labelId);
    this.csses.dropLabel(labelId);
    return done(true);
  }

  /** The status of an account: its website claim and the products it holds. */
  accountStatus(accountId: string): Json | undefined {
    const shop = this.shop(accountId);
    if (!shop) return undefined;
    const products = shop.products.list();
    const byTarget = new Map<string, number>();
    for (const p of products) byTarget.set(String(p['targetCountry']), (byTarget.get(String(p['targetCountry'])) ?? 0) + 1);
    return {
      kind: 'content#accountStatus',
      accountId,
      websiteClaimed: this.accounts.websiteClaimed(accountId),
      accountManagement: 'manual',
      accountLevelIssues: [],
      products: [...byTarget.entries()].map(([country, n]) => ({
        channel: 'online',
        destination: 'Shopping',
        country,
        statistics: { active: String(n), pending: '0', disapproved: '0', expiring: '0' },
        itemLevelIssues: [],
      })),
    };
  }

  private unknownLabels(v: unknown): Outcome<never> | undefined {
    const missing = texts(v).filter((id) => !this.labels.exists(id));
    return missing.length ? invalid(`label${missing.length > 1 ? 's' : ''} ${missing.join(', ')} do${missing.length > 1 ? '' : 'es'} not exist; create a label before assigning it`) : undefined;
  }
}
