import type { IdSequence } from './ids.js';
import { asObject, copy, type Json } from './json.js';
import { done, invalid, notFound, type Outcome } from './outcome.js';
import { Records } from './records.js';

export const ACTIVE = 'ACTIVE';
export const ARCHIVED = 'ARCHIVED';

/**
 * Conversion sources and their states (001 D, States and transitions): DELETE on an active
 * source archives it (it still exists, and get answers it as ARCHIVED); `:undelete` re-enables
 * an archived one. DELETE on an archived source, or undelete on an active one, is refused: the
 * transition's condition does not hold.
 */
export class ConversionSources {
  /** The stored sources, archived ones included. */
  readonly records = new Records('conversionSourceId');

  constructor(private readonly ids: IdSequence) {}

  create(merchantId: string, body: unknown): Json {
    const b = copy(asObject(body));
    delete b['conversionSourceId'];
    const id = this.ids.next();
    const destination = b['merchantCenterDestination'];
    if (destination && typeof destination === 'object' && !Array.isArray(destination)) {
      b['merchantCenterDestination'] = { destinationId: `MC-${merchantId}-${id}`, ...destination };
    }
    return this.records.put(id, { ...b, state: ACTIVE, controller: 'MERCHANT' });
  }

  get(id: string): Json | undefined {
    return this.records.get(id);
  }

  /** Active sources; archived ones too when `showDeleted`. */
  list(showDeleted: boolean): Json[] {
    return this.records.list().filter((s) => showDeleted || s['state'] !== ARCHIVED);
  }

  /** Changes the fields given; the state is the service's, not the caller's. */
  patch(id: string, body: unknown): Json | undefined {
    const b = copy(asObject(body));
    delete b['state'];
    return this.records.merge(id, b);
  }

  /** active -> archived. */
  archive(id: string): Outcome<Json> {
    const cur = this.records.get(id);
    if (!cur) return notFound(`conversion source ${id} was not found`);
    if (cur['state'] === ARCHIVED) return invalid(`conversion source ${id} is already archived; only an active source can be deleted`);
    return done(this.records.merge(id, { state: ARCHIVED }) ?? cur);
  }

  /** archived -> active. */
  undelete(id: string): Outcome<Json> {
    const cur = this.records.get(id);
    if (!cur) return notFound(`conversion source ${id} was not found`);
    if (cur['state'] !== ARCHIVED) return invalid(`conversion source ${id} is not archived; only an archived source can be undeleted`);
    return done(this.records.merge(id, { state: ACTIVE }) ?? cur);
  }
}
