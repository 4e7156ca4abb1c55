import { describe, expect, it } from 'vitest';
import { alwaysWritten, createdNames, insertionTargets, outputForImports } from '../../../../suites/plugin/fuzz/import-output.js';

const set = (...names: string[]): Set<string> => new Set(names);

describe('telling output for imports by the files written', () => {
  it('names files created, not insertions or nameless chunks', () => {
    expect(createdNames({ file: [{ name: 'a.txt', content: '' }, { content: 'more' }, { name: 'a.txt', insertion_point: 'p', content: '' }, { name: 'b.txt' }] })).toEqual(set('a.txt', 'b.txt'));
  });

  it('passes a plugin that writes its own output and a runtime file whatever it is asked', () => {
    const answers = { forImports: set('dep.txt', 'rt.txt'), forBoth: set('dep.txt', 'main.txt', 'rt.txt'), forMainAlone: set('main.txt', 'rt.txt') };
    const always = alwaysWritten([answers.forImports, answers.forBoth, answers.forMainAlone, set('control.txt', 'rt.txt')]);
    expect(always).toEqual(set('rt.txt'));
    expect(outputForImports(answers, always)).toEqual({ told: true, forMain: ['main.txt'], extra: [] });
  });

  it('finds the import\'s output written when only the main file is asked for, under any name', () => {
    const answers = { forImports: set('dep.txt'), forBoth: set('dep.txt', 'main.txt'), forMainAlone: set('main.txt', 'dep.txt') };
    expect(outputForImports(answers, alwaysWritten([set('control.txt')]))).toEqual({ told: true, forMain: ['main.txt'], extra: ['dep.txt'] });
  });

  it('cannot tell when the imports alone give nothing beyond what is always written', () => {
    expect(outputForImports({ forImports: set('rt.txt'), forBoth: set('rt.txt', 'main.txt'), forMainAlone: set('main.txt', 'rt.txt') }, set('rt.txt'))).toEqual({ told: false });
  });

  it('never counts a file the answer creates and then inserts into itself as output for an import', () => {
    const res = { file: [{ name: 'main.txt', content: '' }, { name: 'main.index.txt', content: '' }, { name: 'main.index.txt', insertion_point: 'entries', content: 'main.txt\n' }, { name: 'late.txt', insertion_point: 'p', content: '' }, { name: 'late.txt', content: '' }] };
    // inserted into after it was created: a target; inserted into before it exists: none
    expect(insertionTargets(res)).toEqual(set('main.index.txt'));
    const answers = { forImports: set('dep.txt', 'dep.index.txt'), forBoth: set('dep.txt', 'main.txt', 'dep.index.txt'), forMainAlone: set('main.txt', 'main.index.txt') };
    expect(outputForImports(answers, new Set())).toEqual({ told: true, forMain: ['main.txt'], extra: ['main.index.txt'] });
    expect(outputForImports({ ...answers, forMainAloneTargets: insertionTargets(res) }, new Set())).toEqual({ told: true, forMain: ['main.txt'], extra: [] });
    // output for the import stays caught beside the answer's own target
    expect(outputForImports({ ...answers, forMainAlone: set('main.txt', 'main.index.txt', 'dep.txt'), forMainAloneTargets: set('main.index.txt') }, new Set())).toEqual({ told: true, forMain: ['main.txt'], extra: ['dep.txt'] });
  });
});
