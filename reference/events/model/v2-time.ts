/**
 * Times of `filter[from]` / `filter[to]` of GET /api/v2/events (G): milliseconds as the spec
 * says, and, as conveniences the reference also takes, `now`, `now-15m` style offsets
 * (s, m, h, d) and ISO 8601 date-times. Undefined when the text is none of these.
 */
export function parseV2Time(text: string, now: number): number | undefined {
  const t = text.trim();
  if (/^-?\d+$/.test(t)) return Number(t);
  const relative = /^now(?:([+-])(\d+)([smhd]))?$/.exec(t);
  if (relative) {
    const [, sign, amount, unit] = relative;
    if (!sign || !amount || !unit) return now;
    const ms = Number(amount) * { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[unit as 's' | 'm' | 'h' | 'd'];
    return sign === '-' ? now - ms : now + ms;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(t)) {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
