import type { IdSequence } from './ids.js';
import { asObject, copy, type Json } from './json.js';
import { Records } from './records.js';

/**
 * Account labels (001 D, accounts.labels). A label is owned by the account it is created
 * under, and is created assigned to no account: assignment is accounts.updatelabels (and
 * csses.updatelabels for a CSS domain). The catalog removes a deleted label from every
 * account and domain.
 */
export class Labels {
  private readonly records = new Records('labelId');

  constructor(private readonly ids: IdSequence) {}

  create(ownerId: string, body: unknown): Json {
    const b = copy(asObject(body));
    delete b['labelId'];
    return this.records.put(this.ids.next(), { ...b, accountId: ownerId, labelType: b['labelType'] ?? 'MANUAL' });
  }

  exists(labelId: string): boolean {
    return this.records.has(labelId);
  }

  /** The label when `ownerId` owns it. */
  owned(ownerId: string, labelId: string): Json | undefined {
    const label = this.records.get(labelId);
    return label && label['accountId'] === ownerId ? label : undefined;
  }

  /** Changes the fields given; the owner and the ID stay. */
  patch(ownerId: string, labelId: string, body: unknown): Json | undefined {
    if (!this.owned(ownerId, labelId)) return undefined;
    const b = copy(asObject(body));
    delete b['accountId'];
    return this.records.merge(labelId, b);
  }

  remove(ownerId: string, labelId: string): boolean {
    return this.owned(ownerId, labelId) !== undefined && this.records.remove(labelId);
  }

  /** The labels `ownerId` owns, oldest first. */
  ownedBy(ownerId: string): Json[] {
    return this.records.list().filter((l) => l['accountId'] === ownerId);
  }
}
