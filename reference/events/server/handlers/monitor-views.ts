import { dateHappened, SOURCE_IDS, type MonitorEvent } from '../../model/monitor-event.js';

/** Where the monitoring UI shows an event (the `url` field). */
export const EVENT_UI = 'https://monitoring.example/event/event';

/*
 * The views copy the event's arrays: an answer's body belongs to whoever gets it (a variant of
 * the service may change it in place), and a change there must reach neither the store nor the
 * bytes kept of each event (monitor-view-bytes.ts).
 */

/**
 * A version 1 event (G, "Event (version 1)"): `id` as a bigint, so it is written as an exact
 * JSON number, and `id_str` its decimal digits. `is_aggregate` and `related_event_id` show
 * aggregation (the list's `unaggregated` and `exclude_aggregate` refer to them).
 */
export function v1Event(e: MonitorEvent): Record<string, unknown> {
  return {
    alert_type: e.alertType,
    date_happened: dateHappened(e),
    device_name: e.deviceName,
    host: e.host,
    id: e.id,
    id_str: e.id.toString(),
    is_aggregate: e.isAggregate,
    payload: e.payload,
    priority: e.priority,
    related_event_id: e.relatedEventId,
    source_type_name: e.sourceTypeName,
    tags: [...e.tags],
    text: e.text,
    title: e.title,
    url: `${EVENT_UI}?id=${e.id.toString()}`,
  };
}

/** A `data` item of GET /api/v2/events (G, "Event (version 2 list)"). */
export function v2Event(e: MonitorEvent): Record<string, unknown> {
  const m = e.monitor;
  return {
    id: e.id.toString(),
    type: 'event',
    attributes: {
      message: e.text,
      tags: [...e.tags],
      timestamp: new Date(e.timestampMs).toISOString(),
      attributes: {
        aggregation_key: e.aggregationKey,
        date_happened: dateHappened(e),
        device_name: e.deviceName,
        duration: e.durationNs,
        event_object: e.title,
        evt: { id: e.id.toString(), name: e.title, source_id: SOURCE_IDS[e.sourceTypeName] ?? 1, type: e.sourceTypeName.replace(/\s+/g, '_') },
        hostname: e.host,
        monitor: m
          ? {
              created_at: m.createdAtNs,
              group_status: m.groupStatus,
              groups: [...m.groups],
              id: m.id,
              message: m.message,
              modified: m.modifiedMs,
              name: m.name,
              query: m.query,
              tags: [...m.tags],
              templated_name: m.name,
              type: m.type,
            }
          : undefined,
        monitor_groups: m ? [...m.groups] : undefined,
        monitor_id: m ? m.id : undefined,
        priority: e.priority,
        related_event_id: e.relatedEventId,
        service: e.service,
        source_type_name: e.sourceTypeName,
        sourcecategory: e.sourceTypeName.toLowerCase().replace(/\s+/g, '_'),
        status: e.alertType,
        tags: [...e.tags],
        timestamp: e.timestampMs,
        title: e.title,
      },
    },
  };
}
