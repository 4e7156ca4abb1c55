import { describe, expect, it } from 'vitest';
import { requestDeadlineMs } from '../../src/engine/request-deadline.js';
import { HTTP_DEFAULTS } from '../../src/targets/http-defaults.js';

describe('requestDeadlineMs', () => {
  it("gives an external target the profile's deadline, else the run's, else the default", () => {
    expect(requestDeadlineMs({ vars: {}, http: { timeoutMs: 2500 } }, 4000, 60_000)).toBe(2500);
    expect(requestDeadlineMs({ vars: {} }, 4000, 60_000)).toBe(4000);
    expect(requestDeadlineMs({ vars: {} }, undefined, 60_000)).toBe(HTTP_DEFAULTS.timeoutMs);
  });

  it("bounds a request to the embedded reference by its case's deadline, never below the default", () => {
    expect(requestDeadlineMs(undefined, undefined, 60_000)).toBe(60_000);
    expect(requestDeadlineMs(undefined, undefined, 1000)).toBe(HTTP_DEFAULTS.timeoutMs);
    // a deadline the run sets still holds
    expect(requestDeadlineMs(undefined, 4000, 60_000)).toBe(4000);
  });
});
