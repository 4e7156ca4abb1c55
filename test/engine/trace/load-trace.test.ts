import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Requirement } from '../../../src/engine/model.js';
import { loadTrace } from '../../../src/engine/trace/load-trace.js';
import type { SpecgateError } from '../../../src/errors.js';

const requirements: Requirement[] = [
  { id: 'X-200', level: 'MUST', source: 'd.txt#Rules', text: 'answers 200' },
  { id: 'X-GONE', level: 'MUST', source: 'd.txt#Rules', text: 'not shown', excluded: 'the document shows nothing' },
];

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function load(yaml: string): { trace: ReturnType<typeof loadTrace>; errors: string[] } {
  dir = mkdtempSync(join(tmpdir(), 'specgate-trace-'));
  writeFileSync(join(dir, 'trace.yaml'), yaml);
  const errors: SpecgateError[] = [];
  const trace = loadTrace(dir, requirements, (f) => f.replace(dir, 'suite'), errors);
  return { trace, errors: errors.map((e) => e.message) };
}

describe('loadTrace', () => {
  it('loads a trace whose entries name known requirements', () => {
    const { trace, errors } = load('document: d.txt\ninterfaces: [X]\nstatements:\n  - section: Rules\n    quote: The server answers 200.\n    requirements: [X-200]\n  - section: Rules\n    quote: "Sizes: not shown."\n    requirements: [X-GONE]\n    informative: not shown\n');
    expect(errors).toEqual([]);
    expect(trace?.statements).toHaveLength(2);
  });

  it('names an unknown requirement where it is written, with the nearest known one', () => {
    const { trace, errors } = load('document: d.txt\nstatements:\n  - section: Rules\n    quote: The server answers 200.\n    requirements: [X-201]\n');
    expect(trace).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/^suite\/trace\.yaml:5:20: the trace names requirement "X-201", which the suite's requirements\.yaml does not have \(did you mean X-200/)]);
  });

  it('refuses an informative statement that names a judged requirement', () => {
    const { errors } = load('document: d.txt\nstatements:\n  - section: Rules\n    quote: The server answers 200.\n    requirements: [X-200]\n    informative: just words\n');
    expect(errors).toEqual([expect.stringMatching(/trace\.yaml:5:20: an informative statement names requirement "X-200", which is judged/)]);
  });

  it('refuses an entry that is both excluded and judged, or neither', () => {
    const both = load('document: d.txt\nstatements:\n  - section: Rules\n    quote: The server answers 200.\n    requirements: [X-200]\n    excluded: cannot be provoked from outside\n');
    expect(both.trace).toBeUndefined();
    expect(both.errors.length).toBeGreaterThan(0);
    expect(both.errors.join('\n')).toMatch(/trace\.yaml:3/);
    const none = load('document: d.txt\nstatements:\n  - section: Rules\n    quote: The server answers 200.\n');
    expect(none.trace).toBeUndefined();
    expect(none.errors.length).toBeGreaterThan(0);
  });

  it('has nothing to load without a trace.yaml', () => {
    dir = mkdtempSync(join(tmpdir(), 'specgate-trace-'));
    const errors: SpecgateError[] = [];
    expect(loadTrace(dir, requirements, (f) => f, errors)).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
