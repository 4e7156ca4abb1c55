/**
 * Dates as the affiliate API writes and reads them: `YYYY-MM-DD HH:mm:ss` (E4, E5, E6 and the
 * envelope's `server.date`), on UTC, and times of day `HH:mm:ss`. The spec names no time zone;
 * the reference reads and writes UTC throughout.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The texts of instants written so far: every answer writes the dates of its records again
 * (the seeded ones are a few thousand). Emptied when full, so the run's clock, which moves on,
 * does not grow it without end.
 */
const written = new Map<number, string>();
const WRITTEN_MAX = 20_000;

/** `YYYY-MM-DD HH:mm:ss` of an instant (seconds truncated). */
export function formatDateTime(ms: number): string {
  let text = written.get(ms);
  if (text === undefined) {
    text = writeDateTime(ms);
    if (written.size >= WRITTEN_MAX) written.clear();
    written.set(ms, text);
  }
  return text;
}

function writeDateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The instant a `YYYY-MM-DD HH:mm:ss` names; undefined for any other text or an impossible date (2026-02-30). */
export function parseDateTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return formatDateTime(ms) === text ? ms : undefined;
}

/** Seconds since midnight a `HH:mm:ss` names; undefined for any other text. */
export function parseTimeOfDay(text: string): number | undefined {
  const m = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** Seconds since midnight of an instant. */
export function secondOfDay(ms: number): number {
  return Math.floor((((ms % DAY_MS) + DAY_MS) % DAY_MS) / 1000);
}

/** The day of the week as `selectedDays[]` numbers it: 1 Sunday, 2 Monday, ... 7 Saturday (E4). */
export function weekdayOf(ms: number): number {
  return new Date(ms).getUTCDay() + 1;
}
