/**
 * A spec may write a field under a neutral name where a vendor's API has its own
 * (`performed_via_platform_app` for the vendor's `via_app`). A target profile maps each neutral
 * name to the target's (`fields:`); the engine renames at the boundary only — the JSON and form
 * bodies and the query parameters it sends get the target's names, the answers it reads (JSON,
 * form-encoded) get the spec's — so cases, checks and the model speak the spec's words, and the
 * exchanges a report shows stay as sent and received.
 */

/**
 * `value` with every object key named in `names` renamed, at any depth. Only the objects and
 * lists on the way to a renamed key are copied; a value with none of the names is returned as
 * it is.
 */
export function renameFields(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const renamed = renameFields(item, names);
      if (renamed !== item) (copy ??= value.slice())[i] = renamed;
    }
    return copy ?? value;
  }
  let changed = false;
  const entries: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = Object.hasOwn(names, k) ? (names[k] as string) : k;
    const renamed = renameFields(v, names);
    if (key !== k || renamed !== v) changed = true;
    entries.push([key, renamed]);
  }
  if (!changed) return value;
  const out: Record<string, unknown> = {};
  // defineProperty: a body's "__proto__" key is data, not the copy's prototype
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** The reverse map: the target's field name -> the spec's neutral one. */
export function neutralFieldNames(names: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([neutral, actual]) => [actual, neutral]));
}
