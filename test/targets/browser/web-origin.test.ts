import { describe, expect, it } from 'vitest';
import { webOrigin } from '../../../src/targets/browser/web-origin.js';

describe('webOrigin', () => {
  it('is the origin of an http(s) URL, and nothing for other schemes or what does not parse', () => {
    expect(webOrigin('http://127.0.0.1:8080/a?b#c')).toBe('http://127.0.0.1:8080');
    expect(webOrigin('https://Example.test/x')).toBe('https://example.test');
    expect(webOrigin('about:blank')).toBeUndefined();
    expect(webOrigin('myapp://callback')).toBeUndefined();
    expect(webOrigin('not a url')).toBeUndefined();
  });
});
