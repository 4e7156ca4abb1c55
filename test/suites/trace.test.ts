import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../src/engine/model.js';
import { type SpecStatement, specStatements } from '../../src/engine/trace/spec-statements.js';
import { SHARED, matchTrace, traceSummary } from '../../src/engine/trace/trace-coverage.js';
import { fromRoot } from '../../src/paths.js';
import { builtinSuiteNames } from '../../suites/index.js';
import { loadCatalogCopy } from '../helpers/catalog-copy.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { documentProblems, type TracedSuite, untracedRequirements } from '../helpers/trace-audit.js';

/**
 * Every built-in suite's statement trace (`suites/<suite>/trace.yaml`) against the
 * specification documents in ../shared/specs: every statement of a suite's interfaces has an
 * entry, every entry's quote is in the document, every statement of no interface is named by
 * one of its document's suites, every requirement is named by a statement, and no interface
 * leaves more than a tenth of its statements excluded.
 */
const SPECS = fromRoot('..', 'shared', 'specs');
const specs = requirePeer('the specification documents (../shared/specs)', existsSync(SPECS), 'clone specgate next to the shared folder');

/** The most of an interface's statements that may be excluded. */
const MAX_EXCLUDED = 0.1;

const req = (id: string, extra: Partial<Requirement> = {}): Requirement => ({ id, level: 'MUST', source: 'd.txt#S', text: id, ...extra });
const SAMPLE_DOC = ['# Sample', '', 'Intro sentence here. It covers X and Y.', '', '## Rules', '', '### X. First', '- The server answers 200. It sets ETag.', '', '| Limit | Value |', '|---|---|', '| size | 10 |', '', '### Y. Second', 'Y does things.', '', '## Limits', 'Sizes: not shown.'].join('\n');

describe('the rules of statement traces', () => {
  const statements = specStatements(SAMPLE_DOC);
  const x: TracedSuite = {
    name: 'x',
    requirements: [req('X-200'), req('X-ETAG'), req('X-SIZE', { excluded: 'cannot be provoked' })],
    trace: {
      document: 'd.txt',
      interfaces: ['X'],
      statements: [
        { section: 'Sample', quote: 'Intro sentence here.', informative: 'an overview' },
        { section: 'Sample', quote: 'It covers X and Y.', informative: 'an overview' },
        { section: 'Rules > X. First', quote: 'The server answers 200.', requirements: ['X-200'] },
        { section: 'Rules > X. First', quote: 'It sets ETag.', requirements: ['X-ETAG'] },
        { section: 'Rules > X. First', quote: 'size | 10', requirements: ['X-SIZE'] },
      ],
    },
  };
  const y: TracedSuite = {
    name: 'y',
    requirements: [req('Y-DOES')],
    trace: { document: 'd.txt', interfaces: ['Y'], statements: [{ section: 'Rules > Y. Second', quote: 'Y does things', requirements: ['Y-DOES'] }, { section: 'Limits', quote: 'Sizes: not shown', informative: 'shows nothing' }] },
  };

  it('pass a document whose every statement is named', () => {
    expect(documentProblems(statements, [x, y])).toEqual([]);
    expect(untracedRequirements(x)).toEqual([]);
  });

  it('catch a statement of an interface without an entry, and a shared one no suite names', () => {
    const lacking = { ...x, trace: { ...x.trace, statements: x.trace.statements.filter((e) => e.quote !== 'It sets ETag.' && e.quote !== 'Intro sentence here.') } };
    const problems = documentProblems(statements, [lacking, y]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/line 8 \(Rules > X\. First\) has no entry: "It sets ETag\."/);
    expect(problems.slice(1).join('\n')).toMatch(/line 3 .*no suite's trace names it: "Intro sentence here\."/);
    expect(untracedRequirements(lacking)).toEqual(['X-ETAG']);
  });

  it('catch a quote the document no longer has, and one that two statements hold', () => {
    const stale = { ...y, trace: { ...y.trace, statements: [{ section: 'Rules > Y. Second', quote: 'Y did things', requirements: ['Y-DOES'] }, ...y.trace.statements.slice(1)] } };
    expect(documentProblems(statements, [x, stale]).join('\n')).toMatch(/statement 1 \(Rules > Y\. Second: "Y did things"\): no statement of that section holds this quote/);
    const vague = { ...x, trace: { ...x.trace, statements: [...x.trace.statements.slice(0, 3), { section: 'Rules > X. First', quote: 'T', requirements: ['X-ETAG'] }, ...x.trace.statements.slice(4)] } };
    expect(documentProblems(statements, [vague, y]).join('\n')).toMatch(/statement 4 .*: 2 statements of that section hold this quote/);
  });

  it('count an entry whose requirements are all excluded as excluded, per interface', () => {
    const summary = traceSummary(x.trace, x.requirements);
    expect(summary.interfaces).toEqual([
      { interface: 'X', statements: 3, judged: 2, excluded: 1, informative: 0 },
      { interface: SHARED, statements: 2, judged: 0, excluded: 0, informative: 2 },
    ]);
    expect(summary.sections[1]?.statements[2]).toEqual({ quote: 'size | 10', status: 'excluded', requirements: ['X-SIZE'], reason: 'cannot be provoked' });
  });
});

describe('the statement traces of the built-in suites', () => {
  declarePeer(specs);
  const suites = builtinSuiteNames.map((name: string): { name: string; traced?: TracedSuite; problem?: string } => {
    const files = ['requirements.yaml', 'suite.yaml', 'api.yaml', 'schemas', 'trace.yaml'].filter((f) => existsSync(fromRoot('suites', name, f)));
    try {
      const { suite, remove } = loadCatalogCopy(name, files);
      remove();
      return { name, ...(suite.trace ? { traced: { name, requirements: suite.requirements, trace: suite.trace } } : {}) };
    } catch (e) {
      // a trace that does not load (an unknown requirement ID) fails its own suite's test, not the others'
      return { name, problem: e instanceof Error ? e.message : String(e) };
    }
  });
  const traced = suites.flatMap((s) => (s.traced ? [s.traced] : []));
  const statementsOf = (document: string): SpecStatement[] => specStatements(readFileSync(fromRoot('..', 'shared', 'specs', document), 'utf8'));

  describe.each(suites.map((s) => [s.name, s.traced, s.problem] as const))('%s', (name, s, problem) => {
    it('has a trace: suites/<suite>/trace.yaml, and it loads', () => {
      expect(problem).toBeUndefined();
      expect(s, `suites/${name} has no trace.yaml`).toBeDefined();
    });
    if (!s) return;

    it('names every requirement in a statement of its own document', () => {
      expect(untracedRequirements(s)).toEqual([]);
      expect([...new Set(s.requirements.map((r) => r.source.split('#')[0]))]).toEqual([s.trace.document]);
    });

    it('excludes at most a tenth of each interface\'s statements', () => {
      for (const c of traceSummary(s.trace, s.requirements).interfaces) {
        if (c.interface === SHARED) continue;
        expect(c.excluded / Math.max(1, c.statements), `${name} interface ${c.interface}: ${c.excluded} of ${c.statements} statements excluded`).toBeLessThanOrEqual(MAX_EXCLUDED);
      }
    });

    it.skipIf(specs.skip)('has an entry for every statement of its interfaces, and a statement for every entry', () => {
      expect(matchTrace(s.trace, statementsOf(s.trace.document), `suites/${name}/trace.yaml`).problems.map((p) => p.message)).toEqual([]);
    });
  });

  const documents = [...new Set(traced.map((s) => s.trace.document))];
  it.skipIf(specs.skip).each(documents)('%s: every statement of no suite\'s interfaces is named by one of its suites', (document) => {
    const own = traced.filter((s) => s.trace.document === document);
    // a suite's own statements are its test's above: here only what falls between the suites
    const between = documentProblems(statementsOf(document), own).filter((p) => p.includes("no suite's trace names it"));
    expect(between).toEqual([]);
  });
});
