/**
 * How a planted fault changes named values of a request or an answer (headers, query
 * parameters, form fields): each name set to a string, or removed (null).
 */
export type ValueChanges = Readonly<Record<string, string | null>>;

/** A copy of `headers` with the changes applied. */
export function changedHeaders(headers: Readonly<Record<string, string>>, changes: ValueChanges): Record<string, string> {
  const out = { ...headers };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** A copy of `params` (a query, or a form body as text) with the changes applied; a set name keeps one value. */
export function changedParams(params: URLSearchParams | string, changes: ValueChanges): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) out.delete(k);
    else out.set(k, v);
  }
  return out;
}
