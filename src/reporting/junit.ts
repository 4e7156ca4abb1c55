/**
 * JUnit XML report, valid against Jenkins' junit-10.xsd (DESIGN "Verdicts and reports").
 * Schema constraints that shape the output:
 * - `<properties>` exist only on `<testsuite>`, so requirement IDs go into testcase names;
 * - `<testsuites>` allows name/time/tests/failures/errors only (no `skipped`);
 * - `<testsuite>` requires name/tests/failures/errors; times follow SUREFIRE_TIME.
 */
import type { RunResult } from '../engine/model.js';
import { junitSuites, type JUnitCase, type JUnitSuite } from './junit-cases.js';
import { createFileReporter, type Reporter } from './reporter.js';
import { seconds } from './text.js';
import { attrs, element } from './xml.js';

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

// Counted from the rendered testcases, not from RunSummary, so the attributes always agree
// with what a consumer sees in the file.
function count(cases: JUnitCase[]): Counts {
  const c: Counts = { tests: cases.length, failures: 0, errors: 0, skipped: 0 };
  for (const x of cases) {
    if (x.outcome?.tag === 'failure') c.failures += 1;
    else if (x.outcome?.tag === 'error') c.errors += 1;
    else if (x.outcome?.tag === 'skipped') c.skipped += 1;
  }
  return c;
}

function renderCase(c: JUnitCase): string[] {
  const open = `<testcase${attrs([
    ['name', c.name],
    ['classname', c.classname],
    ['time', c.durationMs === undefined ? undefined : seconds(c.durationMs)],
  ])}`;
  const o = c.outcome;
  if (!o) return [`    ${open}/>`];
  const child = element(o.tag, [['message', o.message], ['type', o.type]], o.body);
  return [`    ${open}>`, `      ${child}`, '    </testcase>'];
}

function renderSuite(s: JUnitSuite): string[] {
  const n = count(s.cases);
  const lines = [
    `  <testsuite${attrs([
      ['name', s.name],
      ['tests', n.tests],
      ['failures', n.failures],
      ['errors', n.errors],
      ['skipped', n.skipped],
      ['time', seconds(s.durationMs)],
      ['timestamp', s.timestamp],
    ])}>`,
  ];
  if (s.properties.length > 0) {
    lines.push('    <properties>');
    for (const [name, value] of s.properties) lines.push(`      ${element('property', [['name', name], ['value', value]])}`);
    lines.push('    </properties>');
  }
  for (const c of s.cases) lines.push(...renderCase(c));
  lines.push('  </testsuite>');
  return lines;
}

/**
 * Renders a run as JUnit XML: per suite a testsuite of cases (`<case-id> [REQ, ...]`) and a
 * `<suite>.requirements` testsuite with one testcase per requirement (`<REQ-ID> (<LEVEL>)`).
 * Pure: same result in, same text out.
 */
export function renderJUnit(result: RunResult): string {
  const suites = junitSuites(result);
  const total = count(suites.flatMap((s) => s.cases));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs([
      ['name', 'specgate'],
      ['tests', total.tests],
      ['failures', total.failures],
      ['errors', total.errors],
      ['time', seconds(result.durationMs)],
    ])}>`,
    ...suites.flatMap(renderSuite),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

/** A reporter that writes {@link renderJUnit} of the finished run to `path`. */
export function createJUnitReporter(path: string): Reporter {
  return createFileReporter(path, renderJUnit);
}
