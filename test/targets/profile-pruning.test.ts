import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/engine/loader/yaml-source.js';
import { schemaErrors } from '../../src/engine/loader/schema-check.js';
import { problemPath, pruneBroken } from '../../src/targets/profile-pruning.js';

/** The profile's data and its schema errors, as the loader sees them. */
function pruned(text: string): ReturnType<typeof pruneBroken> & { paths: (string[] | undefined)[] } {
  const src = parseYaml('/p.yaml', text, { code: 'SG_CONFIG', label: '' });
  const errors = schemaErrors(src, 'target-profile', 'SG_CONFIG', 'profile');
  return { ...pruneBroken(src.data, errors), paths: errors.map(problemPath) };
}

describe('pruneBroken', () => {
  it('sets aside the smallest part each schema error is about, and keeps the rest', () => {
    const p = pruned(
      [
        'nmae: x',
        'name: 5',
        'suites:',
        '  a:',
        '    vars: { ok: 1, "bad-name": 2 }',
        '    http: { timeoutMs: fast }',
        '    agent: { mode: robot }',
        '    varz: 1',
        '  b: 7',
        '  Bad_Name: {}',
        '  c: { vars: { x: 1 } }',
        '',
      ].join('\n'),
    );
    expect(p.paths).toEqual([
      ['nmae'],
      ['name'],
      ['suites', 'Bad_Name'],
      ['suites', 'a', 'varz'],
      ['suites', 'a', 'vars', 'bad-name'],
      ['suites', 'a', 'http', 'timeoutMs'],
      ['suites', 'a', 'agent', 'mode'],
      ['suites', 'b'],
    ]);
    expect(p.data).toEqual({ suites: { a: { vars: { ok: 1 } }, c: { vars: { x: 1 } } } });
    expect(p.broken).toEqual(new Map([['a', new Set(['varz', 'http', 'agent'])]]));
    expect(p.dropped).toEqual(new Set(['Bad_Name', 'b']));
    expect(p.misnamed).toEqual(new Set(['Bad_Name']));
  });

  it('marks vars: broken when it is not a mapping, so what the cases need of it is not judged', () => {
    const p = pruned('suites:\n  a:\n    vars: 5\n    description: d\n');
    expect(p.data).toEqual({ suites: { a: { description: 'd' } } });
    expect(p.broken.get('a')).toEqual(new Set(['vars']));
  });

  it('leaves nothing to check without a suites: mapping', () => {
    expect(pruned('name: x\n').data).toBeUndefined();
    expect(pruned('suites: [a]\n').data).toBeUndefined();
    expect(pruned('- a\n').data).toBeUndefined();
  });

  it('changes nothing of a valid profile, and never the data it was given', () => {
    const src = parseYaml('/p.yaml', 'suites:\n  a:\n    http: { timeoutMs: fast }\n', { code: 'SG_CONFIG', label: '' });
    const before = JSON.stringify(src.data);
    pruneBroken(src.data, schemaErrors(src, 'target-profile', 'SG_CONFIG', 'profile'));
    expect(JSON.stringify(src.data)).toBe(before);
    expect(pruned('suites:\n  a: { vars: { x: 1 } }\n')).toMatchObject({ data: { suites: { a: { vars: { x: 1 } } } }, broken: new Map(), dropped: new Set() });
  });
});
