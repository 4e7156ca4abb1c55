import { describe, expect, it } from 'vitest';
import { expectationMismatches, mismatchText, undecodedMessage, type Observation, type ObservationContext } from '../../../src/engine/runtime/observation.js';
import { Redactor } from '../../../src/targets/redact.js';

const redactor = new Redactor(['s3cr3t-value']);
const ctx: ObservationContext = { redact: (t) => redactor.redactString(t), schema: (_name, v) => ({ problems: typeof v === 'object' && v !== null ? [] : ['must be object'] }) };
const http = (contentType: string | undefined, bodyText: string, body: unknown, more: Partial<Observation> = {}): Observation => ({
  status: 200,
  headers: contentType ? { 'content-type': contentType } : {},
  bodyText,
  body,
  data: body,
  exchange: () => ({ kind: 'note', summary: 'x' }),
  ...more,
});
const texts = (obs: Observation, expect: Record<string, unknown>): string[] => expectationMismatches(obs, expect, ctx, (n) => n).map(mismatchText);

describe('a body that does not decode', () => {
  it('fails a body expectation once, leading with the parser error, when it claims JSON', () => {
    const obs = http('application/json', '<html>oops</html>', undefined, { parseError: 'json body does not parse: x' });
    const found = texts(obs, { body: { a: 1, b: 2, c: { $present: true } } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^the body is not JSON: .+ \(first bytes: "<html>oops<\/html>"\)$/);
    // even a matcher the missing body would meet: the body claims JSON and is not
    expect(texts(obs, { body: { $absent: true } })).toHaveLength(1);
  });

  it('says the Content-Type when the body claims no format, and decodes it as the format asked for to find why', () => {
    const obs = http('text/html', '<html><body>Sign in</body></html>', undefined, { asked: 'json' });
    expect(texts(obs, { schema: 'x/token' })).toEqual([expect.stringMatching(/^the body is not JSON: .+ \(it came with Content-Type text\/html; first bytes: "<html><body>Sign in<\/body><\/html>"\)$/)]);
    // a matcher the missing body meets still holds
    expect(texts(obs, { body: { $absent: true } })).toEqual([]);
  });

  it('says so when it would have decoded had its Content-Type named the format', () => {
    const obs = http('text/plain', '{"a":1}', undefined, { asked: 'json' });
    expect(texts(obs, { body: { a: 1 } })).toEqual(['the body is not JSON: it came with Content-Type text/plain, so it was not decoded (as JSON it would have been) (first bytes: "{\\"a\\":1}")']);
  });

  it('without a format asked for, names none; an empty body is no decoding problem', () => {
    expect(undecodedMessage(http(undefined, 'hello', undefined), ctx.redact)).toBe('the body is not JSON, XML or form-encoded: it came with no Content-Type, which names no format specgate decodes (first bytes: "hello")');
    expect(undecodedMessage(http('text/html', '', undefined), ctx.redact)).toBeUndefined();
    expect(texts(http('text/html', '', undefined), { body: { a: 1 } })).toEqual(['$: expected an object']);
  });

  it('masks the target\'s secrets in the bytes it quotes before cutting them', () => {
    const message = undecodedMessage(http('application/json', 's3cr3t-value and then a long tail of text that is not JSON', undefined), ctx.redact);
    expect(message).toContain('(first bytes: "*** and then a long tail of text that is"…)');
    // the parser quotes the body's first characters too: its piece of the secret is masked
    expect(message).not.toContain('s3cr3t');
  });

  it('stdout a codec could not decode fails once with the codec error', () => {
    const obs: Observation = { exitCode: 0, stdout: { $undecodable: 'plugin.Response: index out of range' }, exchange: () => ({ kind: 'note', summary: 'x' }) };
    expect(texts(obs, { stdout: { file: { $present: true }, error: { $absent: true } } })).toEqual(['stdout does not decode as plugin.Response: index out of range']);
    expect(texts(obs, { exitCode: 0 })).toEqual([]);
  });
});

describe('typed comparisons on a decoded body', () => {
  it('name the format of the body, taken from its Content-Type, and the format the request asked for', () => {
    const form = http('application/x-www-form-urlencoded', 'expires_in=900', { expires_in: '900' }, { asked: 'json' });
    expect(texts(form, { body: { expires_in: { $type: 'integer' } } })).toEqual(['$.expires_in: expected an integer, got the text "900" (the answer was form-encoded, which carries no types, although the request asked for JSON)']);
    const xml = http('application/xml', '<OAuth><interval>5</interval></OAuth>', { OAuth: { interval: '5' } }, { asked: 'xml' });
    expect(texts(xml, { body: { OAuth: { interval: { $type: 'integer' } } } })).toEqual(['$.OAuth.interval: expected an integer, got the text "5" (the answer was XML, which carries only text)']);
  });

  it('leave values that are not bodies (headers, status) as they were', () => {
    const obs = http('application/json', '{}', {}, { status: 500 });
    expect(texts(obs, { status: { $type: 'string' }, headers: { 'content-type': { $equals: 'text/html' } } })).toEqual([
      'status: expected a string, got integer',
      'header content-type: expected exactly "text/html", got "application/json"',
    ]);
  });
});
