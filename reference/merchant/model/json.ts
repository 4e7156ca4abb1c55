/**
 * Representations are plain JSON objects: the spec (001 part D) shows no payloads, so the model
 * keeps whatever fields a caller sends and adds only what the service itself decides (IDs,
 * states, `kind`), shaped like the published client's resource types.
 */
export type Json = Record<string, unknown>;

/** The value as an object, or an empty one (a missing or odd body is tolerated, not refused). */
export function asObject(v: unknown): Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

/** A string or number field as text; undefined for anything else. */
export function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** The string items of an array field (anything else is dropped). */
export function texts(v: unknown): string[] {
  return Array.isArray(v) ? v.map(text).filter((s): s is string => s !== undefined) : [];
}

/** A deep copy, so that nothing a caller holds can change the stored state. */
export function copy<T>(v: T): T {
  return structuredClone(v);
}

/** An ISO 8601 timestamp of a clock reading. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
