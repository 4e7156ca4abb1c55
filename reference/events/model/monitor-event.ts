/**
 * The monitoring event stream of spec 002 part G ("Event (version 1)", "Event (version 2
 * list)", "Limits"): one record per event, from which both list versions are rendered.
 */

/** `alert_type` values (G, Event version 1). */
export const ALERT_TYPES = ['error', 'warning', 'info', 'success', 'user_update', 'recommendation', 'snapshot'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const PRIORITIES = ['normal', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Event text limit (G, Limits): 4000 characters. */
export const TEXT_LIMIT = 4000;
/** `aggregation_key` limit (G, Limits): 100 characters. */
export const AGGREGATION_KEY_LIMIT = 100;
/** How far in the past `date_happened` may lie (G, Limits): 18 hours. */
export const PAST_LIMIT_MS = 18 * 3600_000;
/** How far in the future `date_happened` may lie (G, Limits): two hours. */
export const FUTURE_LIMIT_MS = 2 * 3600_000;
/** GET /api/v1/events answers at most the 1000 most recent events (G, Limits). */
export const V1_LIMIT = 1000;
/**
 * Events per `page` of GET /api/v1/events. The spec names no page size; the reference uses the
 * result limit, so page n holds the matches ranked [1000n, 1000n + 1000) by recency.
 */
export const V1_PAGE_SIZE = V1_LIMIT;
/** `page[limit]` of GET /api/v2/events when absent (the spec shows no default; this is the reference's). */
export const V2_DEFAULT_LIMIT = 10;
/** The largest `page[limit]` the reference serves; larger values are served as this. */
export const V2_MAX_LIMIT = 1000;

/** The monitor an event is about (version 2 `monitor` object). */
export interface MonitorRef {
  id: number;
  name: string;
  query: string;
  type: string;
  message: string;
  tags: string[];
  groups: string[];
  /** `created_at`, nanoseconds since the epoch: beyond 2^53, so a bigint. */
  createdAtNs: bigint;
  /** `modified`, milliseconds since the epoch. */
  modifiedMs: number;
  /** `group_status` (int32). */
  groupStatus: number;
}

export interface MonitorEvent {
  /** int64 above 2^53: only a bigint holds it exactly. */
  id: bigint;
  title: string;
  text: string;
  /** When it happened, in milliseconds; `date_happened` is its whole seconds. */
  timestampMs: number;
  alertType: AlertType;
  priority: Priority;
  sourceTypeName: string;
  /** The event's tags, the tags of its host included (G: "tags of the host also apply"). */
  tags: string[];
  host?: string;
  deviceName?: string;
  aggregationKey?: string;
  /** True on the aggregate parent of a group of events sharing an aggregation key. */
  isAggregate: boolean;
  /** The parent event (the aggregate parent for members of a group). */
  relatedEventId?: bigint;
  monitor?: MonitorRef;
  service?: string;
  /** Nanoseconds between trigger and recovery (recovery events of monitors). */
  durationNs?: number;
  payload: string;
}

/** `date_happened` of an event: whole POSIX seconds. */
export function dateHappened(e: Pick<MonitorEvent, 'timestampMs'>): number {
  return Math.floor(e.timestampMs / 1000);
}

/** Most recent first; the id breaks ties so the order is total. */
export function newestFirst(a: MonitorEvent, b: MonitorEvent): number {
  return b.timestampMs - a.timestampMs || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0);
}

/** Numeric ids of the source types the reference knows (version 2 `evt.source_id`). */
export const SOURCE_IDS: Readonly<Record<string, number>> = {
  monitor: 36,
  nagios: 3,
  jenkins: 43,
  kubernetes: 196,
  chef: 5,
  'my apps': 1,
  deployments: 219,
};
