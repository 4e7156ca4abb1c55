import { IdSequence } from './ids.js';
import { asObject, copy, text, texts, type Json } from './json.js';
import { done, invalid, notFound, type Outcome } from './outcome.js';
import { Records } from './records.js';

const ACCOUNT_KIND = 'content#account';

interface Link {
  linkedAccountId: string;
  linkType: string;
  services: { service: string; status: string }[];
}

/**
 * Merchant accounts and their sub-accounts (001 D, accounts): the seeded merchant, and every
 * sub-account inserted under an account. Each account carries `labelIds`, the labels assigned
 * to it (accounts.updatelabels); the label rules themselves live in labels.ts.
 */
export class Accounts {
  private readonly records = new Records('id');
  private readonly parents = new Map<string, string>();
  private readonly claimed = new Set<string>();
  private readonly links = new Map<string, Map<string, Link>>();
  private readonly phoneChecks = new Map<string, { verificationId: string; phoneNumber: string }>();

  constructor(
    private readonly ids: IdSequence,
    readonly rootId: string,
  ) {
    this.records.put(rootId, { kind: ACCOUNT_KIND, name: 'Reference Shop', websiteUrl: 'https://shop.example', adultContent: false, labelIds: [] });
  }

  exists(id: string): boolean {
    return this.records.has(id);
  }

  get(id: string): Json | undefined {
    return this.records.get(id);
  }

  /** The account that holds `id` as a sub-account (undefined for the seeded merchant). */
  parentOf(id: string): string | undefined {
    return this.parents.get(id);
  }

  /** True when `accountId` is `merchantId` itself or one of its sub-accounts: what a merchant may act on. */
  within(merchantId: string, accountId: string): boolean {
    return this.exists(accountId) && (accountId === merchantId || this.parents.get(accountId) === merchantId);
  }

  /** Creates a sub-account of `merchantId` with the fields sent; the service assigns its `id`. */
  insert(merchantId: string, body: unknown): Outcome<Json> {
    if (!this.exists(merchantId)) return notFound(`merchant ${merchantId} was not found`);
    const id = this.ids.next();
    this.parents.set(id, merchantId);
    return done(this.records.put(id, this.representation(body, [])));
  }

  /** Replaces an account's fields (PUT). Labels stay assigned unless the body names `labelIds`. */
  update(id: string, body: unknown): Outcome<Json> {
    const cur = this.records.get(id);
    if (!cur) return notFound(`account ${id} was not found`);
    return done(this.records.put(id, this.representation(body, texts(cur['labelIds']))));
  }

  /** Deletes a sub-account (never the seeded merchant, which the caller is signed in as). */
  remove(id: string): Outcome<true> {
    if (id === this.rootId) return invalid(`account ${id} is the caller's own account and cannot be deleted`);
    if (!this.records.remove(id)) return notFound(`account ${id} was not found`);
    this.parents.delete(id);
    this.claimed.delete(id);
    this.links.delete(id);
    return done(true);
  }

  /** The sub-accounts of `merchantId`, oldest first. */
  subAccounts(merchantId: string): Json[] {
    return this.records.list().filter((a) => this.parents.get(String(a['id'])) === merchantId);
  }

  /** Every account, the seeded merchant first. */
  all(): Json[] {
    return this.records.list();
  }

  /** Sets the labels assigned to an account (the caller checked that they exist). */
  setLabels(id: string, labelIds: string[]): Json | undefined {
    return this.records.merge(id, { labelIds: [...new Set(labelIds)] });
  }

  /** Removes one label from every account that has it. */
  dropLabel(labelId: string): void {
    for (const a of this.records.list()) {
      const labels = texts(a['labelIds']);
      if (labels.includes(labelId)) this.records.merge(String(a['id']), { labelIds: labels.filter((l) => l !== labelId) });
    }
  }

  claimWebsite(id: string): boolean {
    if (!this.exists(id)) return false;
    this.claimed.add(id);
    return true;
  }

  websiteClaimed(id: string): boolean {
    return this.claimed.has(id);
  }

  /**
   * Acts on the link between `id` and `body.linkedAccountId`: `request` or `approve` makes it
   * active, `delete` removes it. Without a linked account there is nothing to act on.
   */
  link(id: string, body: unknown): void {
    const b = asObject(body);
    const other = text(b['linkedAccountId']);
    if (other === undefined) return;
    const mine = this.links.get(id) ?? new Map<string, Link>();
    this.links.set(id, mine);
    if (text(b['action']) === 'delete') {
      mine.delete(other);
      return;
    }
    const services = texts(b['services']);
    mine.set(other, {
      linkedAccountId: other,
      linkType: text(b['linkType']) ?? 'channelPartner',
      services: (services.length ? services : ['shoppingAdsProductManagement']).map((service) => ({ service, status: 'active' })),
    });
  }

  linksOf(id: string): Json[] {
    return [...(this.links.get(id)?.values() ?? [])].map((l) => ({ linkedAccountId: l.linkedAccountId, services: copy(l.services) }));
  }

  /** Starts a phone verification; verifyPhone later answers the number it was started for. */
  requestPhone(id: string, body: unknown): string {
    const verificationId = this.ids.next();
    this.phoneChecks.set(id, { verificationId, phoneNumber: text(asObject(body)['phoneNumber']) ?? '' });
    return verificationId;
  }

  verifyPhone(id: string, body: unknown): string {
    const pending = this.phoneChecks.get(id);
    return text(asObject(body)['phoneNumber']) ?? pending?.phoneNumber ?? '';
  }

  private representation(body: unknown, labels: string[]): Json {
    const b = copy(asObject(body));
    delete b['id'];
    const labelIds = Array.isArray(b['labelIds']) ? texts(b['labelIds']) : labels;
    return { ...b, kind: ACCOUNT_KIND, labelIds };
  }
}
