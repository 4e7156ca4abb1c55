import { describe, expect, it } from 'vitest';
import { PREAMBLE, headingInterfaces, sectionInterfaces, sentences, specStatements } from '../../../src/engine/trace/spec-statements.js';

describe('sentences', () => {
  it('cut after a full stop before a capital, a backtick or a bracket', () => {
    expect(sentences('The server answers 200. It sets `ETag`. `ETag` is quoted. (See below). Done')).toEqual(['The server answers 200.', 'It sets `ETag`.', '`ETag` is quoted.', '(See below).', 'Done']);
  });

  it('do not cut after an abbreviation, inside backticks or brackets, or before a small letter', () => {
    expect(sentences('Use e.g. Basic auth. Then stop.')).toEqual(['Use e.g. Basic auth.', 'Then stop.']);
    expect(sentences('Send `a. B` here. Next')).toEqual(['Send `a. B` here.', 'Next']);
    expect(sentences('Keep (for example 5. Then 10) whole. Next')).toEqual(['Keep (for example 5. Then 10) whole.', 'Next']);
    expect(sentences('Version 1.2 of it. and more')).toEqual(['Version 1.2 of it. and more']);
  });

  it('make runs of white space one space', () => {
    expect(sentences('  One\n   line.  Two  ')).toEqual(['One line.', 'Two']);
  });
});

describe('heading interfaces', () => {
  it('read a letter, a lettered number, a bare letter and a pair', () => {
    expect(headingInterfaces('G. Monitoring API')).toEqual(['G']);
    expect(headingInterfaces('E1. Register a lead: POST')).toEqual(['E']);
    expect(headingInterfaces('G')).toEqual(['G']);
    expect(headingInterfaces('E and F')).toEqual(['E', 'F']);
    expect(headingInterfaces('Redirect URLs')).toEqual([]);
    expect(headingInterfaces('1. GET {auth_url}/login')).toEqual([]);
  });

  it('take a section\'s letters from its innermost lettered heading', () => {
    expect(sectionInterfaces('Endpoints > B. Platform endpoints > Redirect URLs')).toEqual(['B']);
    expect(sectionInterfaces('Limits')).toEqual([]);
  });
});

describe('specStatements', () => {
  const doc = ['# Title', 'Intro. More intro.', '', '## Rules', '### X. First', '- One item. Two.', '  continued here.', '1. Numbered', '', '| Name | Value |', '|---|---|', '| a | 1 |', '| b | 2 |', '', '#### Deep', 'Deep text.'].join('\n');

  it('find sentences of paragraphs and list items, and table rows but the header, with their sections', () => {
    expect(specStatements(doc).map((s) => [s.line, s.section, s.kind, s.text, s.interfaces.join()])).toEqual([
      [2, 'Title', 'sentence', 'Intro.', ''],
      [2, 'Title', 'sentence', 'More intro.', ''],
      [6, 'Rules > X. First', 'sentence', 'One item.', 'X'],
      [6, 'Rules > X. First', 'sentence', 'Two. continued here.', 'X'],
      [8, 'Rules > X. First', 'sentence', 'Numbered', 'X'],
      [12, 'Rules > X. First', 'row', 'a | 1', 'X'],
      [13, 'Rules > X. First', 'row', 'b | 2', 'X'],
      [16, 'Rules > X. First > Deep', 'sentence', 'Deep text.', 'X'],
    ]);
  });

  it('make every heading a section in a document without one title', () => {
    const untitled = ['Before any heading.', '# Conventions', 'A rule.', '# Pages', 'Another.'].join('\n');
    expect(specStatements(untitled).map((s) => [s.section, s.text])).toEqual([
      [PREAMBLE, 'Before any heading.'],
      ['Conventions', 'A rule.'],
      ['Pages', 'Another.'],
    ]);
  });
});
