import type { IdSequence } from './ids.js';
import { asObject, copy, isoTime, text, type Json } from './json.js';
import { Records } from './records.js';

const PRODUCT_KIND = 'content#product';

/**
 * The REST ID of a product, as the real API forms it: `<channel>:<contentLanguage>:
 * <targetCountry>:<offerId>`. Inserting a product with the same four parts again replaces it.
 */
export function productRestId(p: Json): string {
  return [p['channel'], p['contentLanguage'], p['targetCountry'], p['offerId']].map((v) => text(v) ?? '').join(':');
}

/**
 * Products of one merchant (001 D, products), with their local and regional inventory and the
 * status the service derives for each. A product's fields are the caller's; the service adds
 * `id` and `kind`, and fills the four parts of the ID when the caller leaves one out.
 */
export class Products {
  private readonly records = new Records('id');
  private readonly times = new Map<string, { created: number; updated: number }>();
  private readonly local = new Map<string, Records>();
  private readonly regional = new Map<string, Records>();

  constructor(
    private readonly ids: IdSequence,
    private readonly now: () => number,
  ) {}

  /** Uploads a product: a new one, or a replacement of the product with the same REST ID. */
  insert(body: unknown): Json {
    const b = copy(asObject(body));
    const fields: Json = {
      ...b,
      channel: text(b['channel']) ?? 'online',
      contentLanguage: text(b['contentLanguage']) ?? 'en',
      targetCountry: text(b['targetCountry']) ?? 'US',
      offerId: text(b['offerId']) ?? `offer${this.ids.next()}`,
    };
    const id = productRestId(fields);
    const at = this.now();
    this.times.set(id, { created: this.times.get(id)?.created ?? at, updated: at });
    return this.records.put(id, { ...fields, kind: PRODUCT_KIND });
  }

  get(id: string): Json | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  list(): Json[] {
    return this.records.list();
  }

  /** Changes the fields given (PATCH); the product keeps its REST ID. */
  update(id: string, body: unknown): Json | undefined {
    const b = copy(asObject(body));
    delete b['id'];
    const out = this.records.merge(id, b);
    const t = this.times.get(id);
    if (out && t) t.updated = this.now();
    return out;
  }

  remove(id: string): boolean {
    this.local.delete(id);
    this.regional.delete(id);
    this.times.delete(id);
    return this.records.remove(id);
  }

  /** Sets the local inventory of a product at one store (keyed by storeCode). */
  setLocalInventory(id: string, body: unknown): Json | undefined {
    if (!this.records.has(id)) return undefined;
    const inv: Json = { ...copy(asObject(body)), kind: 'content#localInventory' };
    const store = this.local.get(id) ?? new Records('storeCode');
    this.local.set(id, store);
    return store.put(text(inv['storeCode']) ?? '', inv);
  }

  /** Sets the regional inventory of a product in one region (keyed by regionId). */
  setRegionalInventory(id: string, body: unknown): Json | undefined {
    if (!this.records.has(id)) return undefined;
    const inv: Json = { ...copy(asObject(body)), kind: 'content#regionalInventory' };
    const regions = this.regional.get(id) ?? new Records('regionId');
    this.regional.set(id, regions);
    return regions.put(text(inv['regionId']) ?? '', inv);
  }

  localInventory(id: string): Json[] {
    return this.local.get(id)?.list() ?? [];
  }

  regionalInventory(id: string): Json[] {
    return this.regional.get(id)?.list() ?? [];
  }

  /** The status the service reports for a product: approved where it targets, no issues. */
  status(id: string): Json | undefined {
    const p = this.records.get(id);
    const t = this.times.get(id);
    if (!p || !t) return undefined;
    return {
      kind: 'content#productStatus',
      productId: id,
      title: p['title'] ?? '',
      link: p['link'] ?? '',
      destinationStatuses: [{ destination: 'Shopping', status: 'approved', approvedCountries: [p['targetCountry']], pendingCountries: [], disapprovedCountries: [] }],
      itemLevelIssues: [],
      creationDate: isoTime(t.created),
      lastUpdateDate: isoTime(t.updated),
      googleExpirationDate: isoTime(t.updated + 30 * 24 * 3600 * 1000),
    };
  }

  statuses(): Json[] {
    return this.records.ids().flatMap((id): Json[] => {
      const s = this.status(id);
      return s ? [s] : [];
    });
  }
}
