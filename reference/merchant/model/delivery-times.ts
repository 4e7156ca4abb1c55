import { asObject, copy, text, type Json } from './json.js';
import { done, invalid, type Outcome } from './outcome.js';

/**
 * The product ID a delivery time names: the real API's `productId: {productId: "..."}`, or
 * the plain string.
 */
export function deliveryProductId(body: unknown): string | undefined {
  const v = asObject(body)['productId'];
  return text(v) ?? text(asObject(v)['productId']);
}

/**
 * Product delivery times (001 D, productdeliverytime). `create` is "create or update": creating
 * one for a product that already has one replaces it.
 *
 * Representation: the real API's ProductDeliveryTime, whose `productId` is an object
 * (`{productId: "online:en:US:sku1"}`); get and delete name a delivery time by the inner string in
 * the path (`/productdeliverytime/{productId}`), so api.yaml reads the ID at `$.productId.productId`.
 * A request may send `productId` as the object or as the plain string; the answer always holds
 * the object.
 */
export class DeliveryTimes {
  /** Keyed by the product's ID string; the representation holds it as `productId.productId`. */
  private readonly items = new Map<string, Json>();

  upsert(body: unknown): Outcome<Json> {
    const id = deliveryProductId(body);
    if (id === undefined || id === '') return invalid('a delivery time needs productId.productId, the product it is for');
    const b = copy(asObject(body));
    const stored: Json = { ...b, productId: { ...asObject(b['productId']), productId: id } };
    this.items.set(id, stored);
    return done(copy(stored));
  }

  has(productId: string): boolean {
    return this.items.has(productId);
  }

  get(productId: string): Json | undefined {
    const item = this.items.get(productId);
    return item === undefined ? undefined : copy(item);
  }

  remove(productId: string): boolean {
    return this.items.delete(productId);
  }
}
