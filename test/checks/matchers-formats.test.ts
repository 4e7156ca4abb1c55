import { describe, expect, it } from 'vitest';
import { match, type BodyFormat, type SchemaVerdict } from '../../src/checks/matchers.js';

const messages = (actual: unknown, matcher: unknown, bodyFormat?: BodyFormat): string[] => match(actual, matcher, bodyFormat ? { bodyFormat } : {}).map((m) => m.message);
const FORM: BodyFormat = { kind: 'form' };
const JSON_BODY: BodyFormat = { kind: 'json' };

describe('$type on a decoded body', () => {
  it('says a form or XML value is text, which those formats carry only', () => {
    expect(messages('900', { $type: 'integer' }, FORM)).toEqual(['expected an integer, got the text "900" (the answer was form-encoded, which carries no types)']);
    expect(messages('true', { $type: 'boolean' }, { kind: 'xml' })).toEqual(['expected a boolean, got the text "true" (the answer was XML, which carries only text)']);
  });

  it('says a JSON value is a string or a number, with no note on the format', () => {
    expect(messages('900', { $type: 'integer' }, JSON_BODY)).toEqual(['expected an integer, got the string "900"']);
    expect(messages(5.5, { $type: 'integer' }, JSON_BODY)).toEqual(['expected an integer, got the number 5.5']);
    expect(messages(undefined, { $type: 'integer' }, JSON_BODY)).toEqual(['expected an integer, got absent']);
  });

  it('without a body format keeps the short message', () => {
    expect(messages('900', { $type: 'integer' })).toEqual(['expected an integer, got string']);
    expect(messages(undefined, { $type: 'string' })).toEqual(['expected a string, got absent']);
  });
});

describe('$equals on a decoded body', () => {
  it('names the type expected and the text compared, and that a literal compares text when only the type differs', () => {
    expect(messages('600', { $equals: 900 }, FORM)).toEqual(['expected exactly 900 (a number), got the text "600" (the answer was form-encoded, which carries no types)']);
    expect(messages('900', { $equals: 900 }, { kind: 'form', asked: 'json' })).toEqual([
      'expected exactly 900 (a number), got the text "900" (the answer was form-encoded, which carries no types, although the request asked for JSON; a literal 900 without $equals compares the text)',
    ]);
    expect(messages(600, { $equals: 900 }, JSON_BODY)).toEqual(['expected exactly 900, got the number 600']);
    expect(messages('bearer', { $equals: 'Bearer' }, FORM)).toEqual(['expected exactly "Bearer", got the text "bearer" (the answer was form-encoded, which carries no types)']);
  });

  it('without a body format keeps the message it had', () => {
    expect(messages('600', { $equals: 900 })).toEqual(['expected exactly 900, got "600"']);
  });
});

describe('text operators on a decoded body', () => {
  it('$pattern on a JSON number says the value is not text', () => {
    expect(messages(900, { $pattern: '^[0-9]+$' }, JSON_BODY)).toEqual(['expected text matching /^[0-9]+$/, got the number 900 (the answer was JSON, where this value is not text)']);
    expect(messages('15m', { $pattern: '^[0-9]+$' }, FORM)).toEqual(['expected text matching /^[0-9]+$/, got the text "15m"']);
  });

  it('a comparison with text that holds no number says so', () => {
    expect(messages('soon', { $gte: 0 }, FORM)).toEqual(['expected gte 0, got the text "soon", which is not a number (the answer was form-encoded, which carries no types)']);
    expect(messages('-1', { $gte: 0 }, FORM)).toEqual(['expected gte 0, got the text "-1"']);
    expect(messages('-1', { $gte: 0 })).toEqual(['expected gte 0, got "-1"']);
  });

  it('a schema failure on a form body says what the body was', () => {
    const schema = (): SchemaVerdict => ({ problems: ['expires_in: expected an integer, got "900"'] });
    expect(match({ expires_in: '900' }, { $schema: 'x/t' }, { schema, bodyFormat: FORM }).map((m) => m.message)).toEqual(['expires_in: expected an integer, got "900" [schema x/t] (the answer was form-encoded, which carries no types)']);
    expect(match({ expires_in: '900' }, { $schema: 'x/t' }, { schema, bodyFormat: JSON_BODY }).map((m) => m.message)).toEqual(['expires_in: expected an integer, got "900" [schema x/t]']);
  });
});
