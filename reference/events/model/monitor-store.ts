import type { Clock } from '../../../src/engine/clock.js';
import type { MonitorEvent } from './monitor-event.js';
import { MonitorIdSequence } from './monitor-ids.js';
import { validatePost, type MonitorEventDraft } from './monitor-post.js';
import { seedMonitorEvents, withHostTags, type MonitorSeedCounts } from './monitor-seed.js';
import { done, type Outcome } from './outcome.js';
import { SeededRandom } from '../../../src/engine/seeded-random.js';
import { timeWindow } from './time-window.js';
import { compareIn } from './v2-cursor.js';
import { matchV1, type V1Query } from './v1-query.js';
import { matchV2InTimeOrder, type V2Query } from './v2-query.js';

export interface MonitorStoreOptions {
  clock: Clock;
  /** Seed of the generated stream (default 2002). */
  seed?: number;
  /** False: start empty instead of with the generated stream. */
  seeded?: boolean;
  /** How many events the generated stream has (default MONITOR_SEED). */
  seedCounts?: MonitorSeedCounts;
}

/**
 * The event stream of the monitoring API (spec 002 G), in memory, on a clock: seeded with a
 * realistic stream over the last days (see monitor-seed.ts), grown by POST /api/v1/events.
 * Events sharing an aggregation key form a group: from its second member on, the group has an
 * aggregate parent (`is_aggregate`), dated at its first member, which every member names as
 * `related_event_id`.
 */
export class MonitorStore {
  private readonly events = new Map<bigint, MonitorEvent>();
  private readonly ids = new MonitorIdSequence();
  private readonly clock: Clock;
  /**
   * Every event oldest first (timestamp, then id), made on the first read after a change: a
   * list query then cuts its time window out by binary search instead of going through, and
   * sorting, the whole stream on every page.
   */
  private byTime: MonitorEvent[] | undefined;

  constructor(opts: MonitorStoreOptions) {
    this.clock = opts.clock;
    if (opts.seeded !== false) {
      for (const e of seedMonitorEvents(new SeededRandom(opts.seed ?? 2002), this.ids, this.clock.now(), opts.seedCounts)) this.put(e);
    }
  }

  now(): number {
    return this.clock.now();
  }

  get(id: bigint): MonitorEvent | undefined {
    return this.events.get(id);
  }

  /** Every event, in the order they were stored. */
  all(): MonitorEvent[] {
    return [...this.events.values()];
  }

  /**
   * GET /api/v1/events before its result limit (see v1-query.ts). Only the events within a
   * second of [start, end] are looked at; matchV1 itself decides at the edges.
   */
  matchV1(q: V1Query): MonitorEvent[] {
    return matchV1(timeWindow(this.oldestFirst(), (q.start - 1) * 1000, (q.end + 2) * 1000), q, (id) => this.events.get(id));
  }

  /** GET /api/v2/events before paging (see v2-query.ts). */
  matchV2(q: V2Query): MonitorEvent[] {
    return matchV2InTimeOrder(this.oldestFirst(), q);
  }

  /** Every event by time (timestamp, then id), oldest first; do not change the array. */
  private oldestFirst(): readonly MonitorEvent[] {
    this.byTime ??= [...this.events.values()].sort((a, b) => compareIn('timestamp', a, b));
    return this.byTime;
  }

  /** Stores or replaces an event; the time order is made again on the next read. */
  private put(event: MonitorEvent): void {
    this.events.set(event.id, event);
    this.byTime = undefined;
  }

  /** POST /api/v1/events: validates the body at the clock's now and stores the event. */
  post(body: unknown): Outcome<MonitorEvent> {
    const draft = validatePost(body, this.clock.now(), (id) => this.events.has(id));
    return draft.ok ? done(this.addMonitorEvent(draft.value)) : draft;
  }

  /** Stores an event that is already valid (the user agent's "new event" uses it directly). */
  addMonitorEvent(draft: Partial<MonitorEventDraft> & Pick<MonitorEventDraft, 'title' | 'text'>): MonitorEvent {
    const event: MonitorEvent = {
      id: this.ids.next(),
      title: draft.title,
      text: draft.text,
      timestampMs: draft.timestampMs ?? this.clock.now(),
      alertType: draft.alertType ?? 'info',
      priority: draft.priority ?? 'normal',
      sourceTypeName: draft.sourceTypeName ?? 'my apps',
      tags: withHostTags(draft.tags ?? [], draft.host),
      ...(draft.host ? { host: draft.host } : {}),
      ...(draft.deviceName ? { deviceName: draft.deviceName } : {}),
      ...(draft.aggregationKey ? { aggregationKey: draft.aggregationKey } : {}),
      isAggregate: false,
      ...(draft.relatedEventId !== undefined ? { relatedEventId: draft.relatedEventId } : {}),
      payload: '{}',
    };
    this.put(event);
    if (event.aggregationKey !== undefined && event.relatedEventId === undefined) this.aggregate(event);
    return this.events.get(event.id) ?? event;
  }

  /** Joins `event` to its aggregation group, making the group's parent when it is the second member. */
  private aggregate(event: MonitorEvent): void {
    const key = event.aggregationKey;
    const group = this.all().filter((e) => e.aggregationKey === key);
    let parent = group.find((e) => e.isAggregate);
    const members = group.filter((e) => !e.isAggregate);
    if (!parent) {
      if (members.length < 2) return;
      const first = members.reduce((a, b) => (b.timestampMs < a.timestampMs ? b : a));
      parent = { ...first, id: this.ids.next(), isAggregate: true, text: `${members.length} events with aggregation key ${key}` };
      delete parent.relatedEventId;
      this.put(parent);
    }
    const parentId = parent.id;
    for (const m of members) if (m.relatedEventId === undefined) this.put({ ...m, relatedEventId: parentId });
  }
}
