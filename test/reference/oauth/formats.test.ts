import { describe, expect, it } from 'vitest';
import { encodeFields, negotiateFormat, tokenFields } from '../../../reference/oauth/model/formats.js';

describe('response formats (spec 000, B, Endpoints 2 and 4)', () => {
  it('negotiates from Accept, form by default', () => {
    expect(negotiateFormat(undefined)).toBe('form');
    expect(negotiateFormat('*/*')).toBe('form');
    expect(negotiateFormat('application/json')).toBe('json');
    expect(negotiateFormat('application/xml')).toBe('xml');
    expect(negotiateFormat('text/html, application/json;q=0.5')).toBe('json');
    expect(negotiateFormat('application/json;q=0')).toBe('form');
  });
  const f = tokenFields('tok', 'repo,user');
  it('encodes the three formats', () => {
    expect(encodeFields(f, 'form').body).toBe('token_type=bearer&scope=repo%2Cuser&access_token=tok');
    expect(JSON.parse(encodeFields(f, 'json').body)).toEqual({ token_type: 'bearer', scope: 'repo,user', access_token: 'tok' });
    expect(encodeFields(f, 'xml').body).toContain('<OAuth><token_type>bearer</token_type><scope>repo,user</scope><access_token>tok</access_token></OAuth>');
  });
  it('keeps numbers numeric in JSON only', () => {
    expect(JSON.parse(encodeFields([['interval', 10]], 'json').body)).toEqual({ interval: 10 });
    expect(encodeFields([['interval', 10]], 'form').body).toBe('interval=10');
  });
});
