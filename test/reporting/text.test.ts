import { describe, expect, it } from 'vitest';
import { cleanText, oneLine, seconds, truncate } from '../../src/reporting/text.js';
import { escapeAttr, escapeText } from '../../src/reporting/xml.js';

/** junit-10.xsd, simpleType SUREFIRE_TIME (XSD patterns are anchored). */
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

describe('cleanText', () => {
  it('replaces characters XML 1.0 forbids and keeps everything else', () => {
    expect(cleanText('a\u0000b\u0008c\u000bd\u001fe\uFFFEf')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf');
    expect(cleanText('tab\tnl\ncr\r😀 é 中')).toBe('tab\tnl\ncr\r😀 é 中');
    expect(cleanText('lone \ud800 and \udc00 pair \ud83d\ude00')).toBe('lone \uFFFD and \uFFFD pair 😀');
  });
});

describe('truncate', () => {
  it('caps long text, says so, and never splits a surrogate pair', () => {
    expect(truncate('short', 10)).toBe('short');
    const cut = truncate('ab😀cd', 3);
    expect(cut.startsWith('ab\n')).toBe(true);
    expect(cut).toContain('truncated, 4 more characters');
  });

  it('oneLine flattens newlines and bounds length', () => {
    expect(oneLine('a\n  b\r\nc')).toBe('a b c');
    expect(oneLine('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}… (truncated)`);
  });
});

describe('seconds', () => {
  it('always matches SUREFIRE_TIME', () => {
    for (const ms of [0, 1, 12.4, 999.9999, 1534, 123456789, -5, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e30]) {
      expect(seconds(ms)).toMatch(SUREFIRE_TIME);
    }
    expect(seconds(1534)).toBe('1.534');
    expect(seconds(-5)).toBe('0.000');
  });
});

describe('XML escaping', () => {
  it('escapes markup in text, including the CDATA terminator', () => {
    expect(escapeText('<a href="x">&amp;</a> ]]>')).toBe('&lt;a href="x"&gt;&amp;amp;&lt;/a&gt; ]]&gt;');
  });

  it('escapes quotes and keeps whitespace in attributes as character references', () => {
    expect(escapeAttr(`"it's"\t\n\r<&>`)).toBe('&quot;it&apos;s&quot;&#9;&#10;&#13;&lt;&amp;&gt;');
  });
});
