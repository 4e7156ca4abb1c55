import { describe, expect, it } from 'vitest';
import { CUT_MARK, PREVIEW_MARGIN, cutText, detached, redactedPreview } from '../../src/targets/text-cut.js';
import { Redactor } from '../../src/targets/redact.js';

const SECRET = 'sk-live-0123456789abcdef';

describe('cutText and redactedPreview', () => {
  it('keeps short text as it is and cuts long text with the count of what follows', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('a'.repeat(30), 10)).toBe(`${'a'.repeat(10)}${CUT_MARK} (20 more characters)`);
  });

  it('masks a secret before the cut in a text far longer than the margin, and counts every character left out', () => {
    const redactor = new Redactor([SECRET]);
    const text = `key=${SECRET}; ${'x'.repeat(3 * PREVIEW_MARGIN)}${SECRET}`;
    const preview = redactedPreview(text, 100, (t) => redactor.redactString(t));
    expect(preview).not.toContain(SECRET);
    expect(preview.startsWith('key=')).toBe(true);
    // the same text as masking the whole and then cutting gives, for a text whose secrets lie in the head
    const whole = redactor.redactString(text);
    const shownLength = preview.indexOf(CUT_MARK);
    expect(preview.slice(0, shownLength)).toBe(whole.slice(0, shownLength));
    const more = Number(/\((\d+) more characters\)/.exec(preview)?.[1]);
    expect(more).toBe(redactor.redactString(text.slice(0, 100 + PREVIEW_MARGIN)).length - shownLength + (text.length - 100 - PREVIEW_MARGIN));
  });

  it('a head that masking shortens below the cut still ends with the cut mark', () => {
    const text = `${SECRET.repeat(5000)}${'y'.repeat(PREVIEW_MARGIN)}`;
    const redactor = new Redactor([SECRET]);
    const preview = redactedPreview(text, 4096, (t) => redactor.redactString(t));
    expect(preview).not.toContain(SECRET.slice(0, 8));
    expect(preview).toMatch(new RegExp(`${CUT_MARK} \\(\\d+ more characters\\)$`));
  });
});

describe('detached', () => {
  it('is the same text, code unit for code unit, lone surrogates included', () => {
    const piece = `a\uD800b😀\uDC00c`;
    expect(detached(piece)).toBe(piece);
    expect(detached('')).toBe('');
  });
});
