import type { CheckContext, CheckResponse } from '../../../src/engine/suite-module.js';

/** The target's time in milliseconds: the run's clock (virtual against the reference), else the wall clock. */
export function nowMs(ctx: CheckContext): number {
  return ctx.clock?.now() ?? Date.now();
}

/** Whether an answer is a success (the monitoring API's numeric statuses are not shown: any 2xx). */
export function ok(res: CheckResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** Whether an answer is a refusal: a 4xx (the monitoring API's numeric statuses are not shown). */
export function refused(res: CheckResponse): boolean {
  return res.status >= 400 && res.status < 500;
}

/** A field of an object answer (undefined for anything else). */
export function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

/** POSIX seconds of a time in milliseconds. */
export function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}
