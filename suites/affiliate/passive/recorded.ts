import type { ApiTable } from '../../../src/engine/api/table.js';
import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRuleFinding, PassiveVerdict } from '../../../src/engine/suite-module.js';

/**
 * What the affiliate passive rules read of one recorded exchange (spec 001, part E): whether the
 * request carried the key, the query names it sent, whether it was answered as a success.
 */

/** Findings kept per requirement: the first ones show the deviation, the rest repeat it. */
const KEEP_FINDINGS = 10;

/** Whether the recorded request carried the table's key header (Api-Key), whatever its value (a recording masks it). */
export function carriesKey(x: MatchedExchange, table: ApiTable): boolean {
  return table.auth === undefined || x.recorded.requestHeaders[table.auth.header.toLowerCase()] !== undefined;
}

/** The query parameter names the recorded request sent. */
export function queryNames(x: MatchedExchange): Set<string> {
  try {
    return new Set(new URL(x.recorded.url, 'http://relative.invalid').searchParams.keys());
  } catch {
    return new Set();
  }
}

/** A success as part E counts one (Errors 1: 200, or 201 which the sample client also accepts). */
export const isSuccess = (status: number): boolean => status === 200 || status === 201;

/** The answer's body, when it was kept whole and parsed as JSON (a cut or unparsed body is not judged). */
export function parsedBody(x: MatchedExchange): unknown {
  if (x.recorded.responseCut || x.recorded.parseError !== undefined) return undefined;
  return x.recorded.responseBody;
}

/** A plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A recorded value as a message shows it: JSON (a big integer as a number), `absent` for none. */
export function shown(value: unknown): string {
  if (value === undefined) return 'absent';
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
}

/** One requirement's verdict from what was judged, with the reason when nothing was. */
export function verdict(requirement: string, observations: number, findings: PassiveRuleFinding[], lacking: string): PassiveVerdict {
  return { requirement, observations, findings: findings.slice(0, KEEP_FINDINGS), ...(observations === 0 ? { lacking } : {}) };
}
