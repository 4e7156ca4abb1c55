import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpecgateError } from '../../src/errors.js';
import { createReporter, parseReportSpec } from '../../src/reporting/index.js';
import { eventsFor, makeRunResult } from '../fixtures/reporting/run-result.js';

function usageError(spec: string): string {
  try {
    createReporter(spec);
  } catch (e) {
    if (isSpecgateError(e) && e.code === 'SG_USAGE') return e.message;
    throw e;
  }
  throw new Error(`${spec} was accepted`);
}

describe('createReporter', () => {
  it('parses junit=, json= and tap= and resolves relative paths against cwd', () => {
    expect(parseReportSpec('junit=reports/j.xml', { cwd: '/w' })).toEqual({ format: 'junit', path: '/w/reports/j.xml' });
    expect(parseReportSpec('json=/abs/r.json', { cwd: '/w' })).toEqual({ format: 'json', path: '/abs/r.json' });
    // Only the first "=" separates: paths may contain one.
    expect(parseReportSpec('tap=out/a=b.tap', { cwd: '/w' })).toEqual({ format: 'tap', path: '/w/out/a=b.tap' });
  });

  it('rejects anything else with SG_USAGE and a message naming the allowed forms', () => {
    for (const spec of ['pdf=r.pdf', 'junit', 'junit=', 'JUNIT=x.xml', '=x', '', 'toString=x', '__proto__=x']) {
      expect(usageError(spec)).toContain('junit=<path>, json=<path> or tap=<path>');
    }
  });

  it('creates reporters that write their format in finish()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'specgate-index-'));
    const reporters = ['junit=out/r.xml', 'json=out/r.json', 'tap=out/r.tap'].map((s) => createReporter(s, { cwd: dir }));
    for (const e of eventsFor(makeRunResult())) for (const r of reporters) r.onEvent(e);
    await Promise.all(reporters.map((r) => r.finish()));
    expect(readFileSync(join(dir, 'out/r.xml'), 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="specgate"/);
    expect(JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8'))).toHaveProperty('requirements');
    expect(readFileSync(join(dir, 'out/r.tap'), 'utf8')).toMatch(/^TAP version 13\n1\.\.9\n/);
    // The temp file used for the atomic write is gone.
    expect(existsSync(join(dir, 'out', `r.xml.${process.pid}.tmp`))).toBe(false);
  });
});
