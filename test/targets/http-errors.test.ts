import { describe, expect, it } from 'vitest';
import { errors as undiciErrors } from 'undici';
import { SpecgateError } from '../../src/errors.js';
import { errorCode, mapTransportError, type FailureContext } from '../../src/targets/http-errors.js';

const ctx: FailureContext = { method: 'POST', url: 'https://auth.acme.test/token', timeoutMs: 5000, maxBodyBytes: 1024 };
const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const map = (e: unknown): SpecgateError => mapTransportError(e, ctx, (s) => s);

// DNS failures cannot be provoked here without asking a resolver off this machine, so the
// mapping is checked on the error shapes Node and undici produce.
describe('transport error mapping', () => {
  it('maps DNS failures to unreachable with a hint at the base URL', () => {
    const e = map(withCode('getaddrinfo ENOTFOUND auth.acme.test', 'ENOTFOUND'));
    expect(e.code).toBe('SG_TARGET_UNREACHABLE');
    expect(e.message).toContain('host name does not resolve');
    expect(e.message).toContain('https://auth.acme.test/token');
    expect(e.message).toContain('check the base URL in the target profile');
  });

  it('finds the code inside the AggregateError of a happy-eyeballs connect', () => {
    const agg = new AggregateError([withCode('connect ECONNREFUSED ::1:80', 'ECONNREFUSED')], 'all failed');
    expect(errorCode(agg)).toBe('ECONNREFUSED');
    expect(map(agg).code).toBe('SG_TARGET_UNREACHABLE');
  });

  it('maps undici timeouts, parser errors and header overflow', () => {
    expect(map(withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT')).code).toBe('SG_TARGET_TIMEOUT');
    expect(map(withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT')).message).toContain('http.timeoutMs');
    expect(map(withCode('Response does not match the HTTP/1.1 protocol', 'HPE_INVALID_CONSTANT')).code).toBe('SG_TARGET_PROTOCOL');
    expect(map(withCode('Headers Overflow Error', 'UND_ERR_HEADERS_OVERFLOW')).code).toBe('SG_TARGET_TOO_LARGE');
  });

  it('keeps SpecgateErrors and marks unknown failures as internal', () => {
    const typed = new SpecgateError('SG_CONFIG', 'x');
    expect(map(typed)).toBe(typed);
    expect(map(new Error('weird')).code).toBe('SG_INTERNAL');
  });

  it('maps undici parser errors, which carry no code, to protocol errors naming what is malformed', () => {
    // undici builds these with the llhttp reason in parentheses and the bytes where parsing stopped
    const parser = Object.assign(new undiciErrors.HTTPParserError('Response does not match the HTTP/1.1 protocol (Invalid header value char)'), { data: '\u0001v\r\n\r\n' });
    expect(parser.code).toBeUndefined();
    const e = map(parser);
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('not valid HTTP/1.1: a header value holds a control character');
    expect(e.message).toContain('parsing stopped at "\\u0001v\\r\\n\\r\\n"');
    const status = map(new undiciErrors.HTTPParserError('Response does not match the HTTP/1.1 protocol (Invalid status code)'));
    expect([status.code, status.message]).toEqual(['SG_TARGET_PROTOCOL', expect.stringContaining('no valid 3-digit status code')]);
  });

  it('tells a connection cut in the middle of an answer from a target that never answered', () => {
    const reset = withCode('read ECONNRESET', 'ECONNRESET');
    expect(mapTransportError(reset, ctx, (s) => s, 0).code).toBe('SG_TARGET_UNREACHABLE');
    expect(mapTransportError(reset, ctx, (s) => s).code).toBe('SG_TARGET_UNREACHABLE');
    const cut = mapTransportError(reset, ctx, (s) => s, 17);
    expect(cut.code).toBe('SG_TARGET_PROTOCOL');
    expect(cut.message).toContain('reset the connection after 17 bytes of its answer');
    const closed = mapTransportError(withCode('other side closed', 'UND_ERR_SOCKET'), ctx, (s) => s, 3);
    expect([closed.code, closed.message]).toEqual(['SG_TARGET_PROTOCOL', expect.stringContaining('closed the connection after 3 bytes')]);
  });

  it('maps an answer nobody asked for (a stray 100 Continue) to a protocol error', () => {
    const e = map(withCode('bad response', 'UND_ERR_SOCKET'));
    expect(e.code).toBe('SG_TARGET_PROTOCOL');
    expect(e.message).toContain('100 Continue');
  });
});
