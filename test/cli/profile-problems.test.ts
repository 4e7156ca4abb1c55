import { describe, expect, it } from 'vitest';
import { profileProblemsError } from '../../cli/profile-problems.js';
import { SpecgateError } from '../../src/errors.js';

const problem = (message: string, suite?: string): { suite?: string; error: SpecgateError } => ({ ...(suite !== undefined ? { suite } : {}), error: new SpecgateError('SG_CONFIG', message) });

describe('profileProblemsError', () => {
  it('lists every problem under its section: the top level first, then the suites in the file order', () => {
    const err = profileProblemsError({
      file: '/p.yaml',
      sections: ['b', 'a'],
      problems: [problem('/p.yaml:5:1: a one', 'a'), problem('/p.yaml:2:1: top'), problem('/p.yaml:3:1: b one\nsecond line\nthird', 'b'), problem('/p.yaml:6:1: a two', 'a')],
    });
    expect(err.code).toBe('SG_CONFIG');
    expect(err.detail).toEqual({ file: '/p.yaml', count: 4 });
    expect(err.message).toBe(
      [
        '/p.yaml has 4 problems; fix them all, then validate again (each says what to do):',
        '  the profile:',
        '    [SG_CONFIG] /p.yaml:2:1: top',
        '  suites.b:',
        '    [SG_CONFIG] /p.yaml:3:1: b one',
        '      second line',
        '      third',
        '  suites.a:',
        '    [SG_CONFIG] /p.yaml:5:1: a one',
        '    [SG_CONFIG] /p.yaml:6:1: a two',
      ].join('\n'),
    );
  });

  it('says a check that stopped early may find more once its problem is fixed', () => {
    const err = profileProblemsError({ file: '/p.yaml', sections: [], problems: [problem('/p.yaml:3:3: Map keys must be unique')], stopped: 'its YAML does not parse' });
    expect(err.message).toBe(['/p.yaml is checked no further because its YAML does not parse: fix this first; other problems may follow:', '  the profile:', '    [SG_CONFIG] /p.yaml:3:3: Map keys must be unique'].join('\n'));
  });

  it('words a single problem as one, and keeps a section the file order does not name', () => {
    const err = profileProblemsError({ file: '/p.yaml', sections: [], problems: [problem('/p.yaml has no section for suite x', 'x')] });
    expect(err.message).toBe(['/p.yaml has a problem; fix it, then validate again:', '  suites.x:', '    [SG_CONFIG] /p.yaml has no section for suite x'].join('\n'));
  });
});
