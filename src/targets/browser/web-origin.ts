/**
 * The origin of an http(s) URL a page reached (whose stored data a wipe clears), or undefined for
 * any other scheme (about:, data:, a custom scheme) and for what does not parse.
 */
export function webOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
