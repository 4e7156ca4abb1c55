/**
 * A spec may put a neutral word in a path where the original API has a brand name
 * (`accessibleprofileaccounts` for the original's own word). A target profile maps each
 * neutral segment to the target's (`paths:`); these rewrite whole path segments either way.
 */

/** The path of `url` with every segment named in `names` replaced (query and origin kept). */
export function renameSegments(url: string, names: Readonly<Record<string, string>>): string {
  if (Object.keys(names).length === 0) return url;
  const q = url.search(/[?#]/);
  const head = q < 0 ? url : url.slice(0, q);
  const tail = q < 0 ? '' : url.slice(q);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(head)?.[0] ?? '';
  const path = head.slice(origin.length);
  return origin + path.split('/').map((seg) => (Object.hasOwn(names, seg) ? (names[seg] as string) : seg)).join('/') + tail;
}

/** The reverse map: the target's segment -> the spec's neutral one. */
export function neutralNames(names: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([neutral, actual]) => [actual, neutral]));
}
