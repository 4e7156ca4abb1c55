import { describe, expect, it } from 'vitest';
import { undecodedMessage, whyUndecoded } from '../../src/targets/body-parse.js';

describe('whyUndecoded', () => {
  it('gives the decoder\'s error for a body that claims JSON or XML and is not', () => {
    expect(whyUndecoded('application/json', '<html>')).toMatchObject({ kind: 'json', reason: expect.stringMatching(/Unexpected token/) });
    expect(whyUndecoded('application/xml', '<a><b></a>')).toMatchObject({ kind: 'xml', reason: expect.stringMatching(/^not well-formed at line 1, column \d+: /) });
  });

  it('decodes a body whose Content-Type names no format as the format asked for', () => {
    expect(whyUndecoded('text/html', '<html>', 'json')).toMatchObject({ kind: 'json', cameWith: 'Content-Type text/html', reason: expect.stringMatching(/Unexpected token/) });
    expect(whyUndecoded('text/plain', '<OAuth/>', 'xml')).toEqual({ kind: 'xml', cameWith: 'Content-Type text/plain', reason: 'it came with Content-Type text/plain, so it was not decoded (as XML it would have been)' });
    expect(whyUndecoded(undefined, 'a=1', 'form')).toEqual({ kind: 'form', cameWith: 'no Content-Type', reason: 'it came with no Content-Type, so it was not decoded (as form-encoded it would have been)' });
  });

  it('finds nothing wrong with an empty body or one that decodes as it claims', () => {
    expect(whyUndecoded('application/json', '  ')).toBeUndefined();
    expect(whyUndecoded('application/json', '{"a":1}')).toBeUndefined();
    expect(whyUndecoded('application/x-www-form-urlencoded', '<html>')).toBeUndefined();
  });
});

describe('undecodedMessage', () => {
  it('leads with the format and the error, then quotes the first bytes (masked, then cut)', () => {
    const text = `<html><head><title>Sign in</title></head><body>token=abcdefgh</body></html>`;
    const message = undecodedMessage('application/json', text, undefined, (t) => t.replaceAll('Sign in', '***'));
    expect(message).toMatch(/^the body is not JSON: .+ \(first bytes: "<html><head><title>\*\*\*<\/title><\/head><bo"…\)$/);
  });
});

describe('the Content-Type a body came with', () => {
  it('is named by its media type alone', () => {
    expect(whyUndecoded('text/html; charset=utf-8', '<html>', 'json')?.cameWith).toBe('Content-Type text/html');
  });
});
