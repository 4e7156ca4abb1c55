import { AGGREGATION_KEY_LIMIT, ALERT_TYPES, FUTURE_LIMIT_MS, PAST_LIMIT_MS, PRIORITIES, TEXT_LIMIT, type AlertType, type MonitorEvent, type Priority } from './monitor-event.js';
import { done, invalid, type Outcome } from './outcome.js';

/**
 * A POST /api/v1/events body that passed validation (G, Endpoints and Limits): an event without
 * what the stream gives it (its id, whether it is an aggregate, monitor fields, payload).
 * `timestampMs` is the clock's now when the body gave no `date_happened`.
 */
export type MonitorEventDraft = Omit<MonitorEvent, 'id' | 'isAggregate' | 'monitor' | 'service' | 'durationNs' | 'payload'>;

/** Characters as a person counts them (code points), not UTF-16 units. */
export function characters(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An int64 sent as a JSON integer (a lossless parse gives bigint beyond 2^53). */
function integer(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return undefined;
}

function optionalString(body: Record<string, unknown>, name: string, problems: string[]): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    problems.push(`${name} must be a string`);
    return undefined;
  }
  return v;
}

function oneOf<T extends string>(body: Record<string, unknown>, name: string, values: readonly T[], fallback: T, problems: string[]): T {
  const v = body[name];
  if (v === undefined || v === null) return fallback;
  const found = values.find((x) => x === v);
  if (found === undefined) problems.push(`${name} must be one of ${values.join(', ')}`);
  return found ?? fallback;
}

/**
 * Validates a POST /api/v1/events body at `now` (G): `title` and `text` required strings, text
 * at most 4000 characters, `aggregation_key` at most 100, `date_happened` an integer of POSIX
 * seconds no more than 18 hours in the past nor two hours in the future, `related_event_id`
 * an integer naming an existing event, the enumerations from the field table. Every problem is
 * reported at once.
 */
export function validatePost(body: unknown, now: number, exists: (id: bigint) => boolean): Outcome<MonitorEventDraft> {
  if (!isObject(body)) return invalid('the body must be a JSON object with at least title and text');
  const problems: string[] = [];
  const title = body['title'];
  const text = body['text'];
  if (typeof title !== 'string' || title.trim() === '') problems.push('title is required (a non-empty string)');
  if (typeof text !== 'string') problems.push('text is required (a string)');
  else if (characters(text) > TEXT_LIMIT) problems.push(`text must be at most ${TEXT_LIMIT} characters (got ${characters(text)})`);

  let timestampMs = now;
  if (body['date_happened'] !== undefined && body['date_happened'] !== null) {
    const seconds = integer(body['date_happened']);
    const earliest = Math.floor((now - PAST_LIMIT_MS) / 1000);
    const latest = Math.ceil((now + FUTURE_LIMIT_MS) / 1000);
    if (seconds === undefined) problems.push('date_happened must be an integer of POSIX seconds');
    else if (seconds < BigInt(earliest)) problems.push('date_happened must be no more than 18 hours in the past');
    else if (seconds > BigInt(latest)) problems.push('date_happened must be no more than 2 hours in the future');
    else timestampMs = Number(seconds) * 1000;
  }

  const aggregationKey = optionalString(body, 'aggregation_key', problems);
  if (aggregationKey !== undefined && characters(aggregationKey) > AGGREGATION_KEY_LIMIT) problems.push(`aggregation_key must be at most ${AGGREGATION_KEY_LIMIT} characters`);

  let relatedEventId: bigint | undefined;
  const related = body['related_event_id'];
  if (related !== undefined && related !== null) {
    relatedEventId = integer(related);
    if (relatedEventId === undefined) problems.push('related_event_id must be an integer');
    else if (!exists(relatedEventId)) problems.push(`related_event_id ${relatedEventId} names no event`);
  }

  const rawTags = body['tags'];
  const tags = Array.isArray(rawTags) ? rawTags : [];
  if (rawTags !== undefined && rawTags !== null && (!Array.isArray(rawTags) || rawTags.some((t) => typeof t !== 'string'))) problems.push('tags must be an array of strings');

  const alertType = oneOf(body, 'alert_type', ALERT_TYPES, 'info', problems);
  const priority = oneOf(body, 'priority', PRIORITIES, 'normal', problems);
  const host = optionalString(body, 'host', problems);
  const deviceName = optionalString(body, 'device_name', problems);
  const sourceTypeName = optionalString(body, 'source_type_name', problems);
  if (problems.length || typeof title !== 'string' || typeof text !== 'string') return invalid(...problems);
  return done({
    title,
    text,
    timestampMs,
    alertType,
    priority,
    sourceTypeName: sourceTypeName ?? 'my apps',
    tags: tags.filter((t): t is string => typeof t === 'string'),
    ...(host ? { host } : {}),
    ...(deviceName ? { deviceName } : {}),
    ...(aggregationKey ? { aggregationKey } : {}),
    ...(relatedEventId !== undefined ? { relatedEventId } : {}),
  });
}
