import { HTTP_DEFAULTS } from '../targets/http-defaults.js';
import type { TargetSection } from '../targets/target-section.js';

/**
 * How long one request of a suite's cases may take (ms): the profile section's `http.timeoutMs`,
 * else the run's, else the documented default (docs/targets.md). The embedded reference (no
 * section) answers in this process, so what delays its answers is this process's other work
 * (the suites beside it), never a target that stalls: the case's own deadline bounds its requests.
 */
export function requestDeadlineMs(section: TargetSection | undefined, runTimeoutMs: number | undefined, caseTimeoutMs: number): number {
  return section?.http?.timeoutMs ?? runTimeoutMs ?? (section ? HTTP_DEFAULTS.timeoutMs : Math.max(HTTP_DEFAULTS.timeoutMs, caseTimeoutMs));
}
