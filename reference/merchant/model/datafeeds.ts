import type { IdSequence } from './ids.js';
import { asObject, copy, isoTime, type Json } from './json.js';
import { Records } from './records.js';

/**
 * Datafeed configurations (001 D, datafeeds) and the status of each: no fetch yet
 * (`processingStatus: none`) until fetchnow, then `success` with the fetch time.
 */
export class Datafeeds {
  private readonly records = new Records('id');
  private readonly fetched = new Map<string, number>();

  constructor(
    private readonly ids: IdSequence,
    private readonly now: () => number,
  ) {}

  insert(body: unknown): Json {
    return this.records.put(this.ids.next(), this.representation(body));
  }

  get(id: string): Json | undefined {
    return this.records.get(id);
  }

  list(): Json[] {
    return this.records.list();
  }

  /** Replaces a configuration (PUT). */
  update(id: string, body: unknown): Json | undefined {
    return this.records.replace(id, this.representation(body));
  }

  remove(id: string): boolean {
    this.fetched.delete(id);
    return this.records.remove(id);
  }

  /** Fetches the feed now; false when there is no such datafeed. */
  fetchNow(id: string): boolean {
    if (!this.records.has(id)) return false;
    this.fetched.set(id, this.now());
    return true;
  }

  status(id: string): Json | undefined {
    if (!this.records.has(id)) return undefined;
    const at = this.fetched.get(id);
    return {
      kind: 'content#datafeedStatus',
      datafeedId: id,
      processingStatus: at === undefined ? 'none' : 'success',
      itemsTotal: '0',
      itemsValid: '0',
      errors: [],
      warnings: [],
      ...(at === undefined ? {} : { lastUploadDate: isoTime(at) }),
    };
  }

  statuses(): Json[] {
    return this.records.ids().flatMap((id): Json[] => {
      const s = this.status(id);
      return s ? [s] : [];
    });
  }

  private representation(body: unknown): Json {
    const b = copy(asObject(body));
    delete b['id'];
    return { ...b, kind: 'content#datafeed' };
  }
}
