import { describe, expect, it } from 'vitest';
import { pageForms, readPage } from '../../../reference/oauth/server/agent-pages.js';

describe('what the reference user agent reads of a page', () => {
  it('resolves form actions and redirects against the address the page came from', () => {
    const body =
      '<main data-page="consent"><form id="approve" method="post" action="/login/device/decision"><input type="hidden" name="user_code" value="ABCD-EFGH"><input type="hidden" name="decision" value="approve"></form>' +
      '<form id="odd" method="post" action="http://[">x</form><form id="next" method="post" action="step?a=1&amp;b=2"></form></main>';
    const page = readPage('http://gateway.test:8080/login/device', 200, undefined, body);
    expect(page).toMatchObject({ name: 'consent', location: null });
    expect(pageForms(page)).toEqual({
      approve: { action: 'http://gateway.test:8080/login/device/decision', fields: { user_code: 'ABCD-EFGH', decision: 'approve' } },
      // an action that is no URL cannot be submitted: the form is left out
      next: { action: 'http://gateway.test:8080/login/step?a=1&b=2', fields: {} },
    });
    expect(readPage('http://gateway.test:8080/session', 302, '/login/device', '').location).toBe('http://gateway.test:8080/login/device');
    expect(readPage('http://gateway.test:8080/session', 302, 'http://[', '').location).toBe('http://[');
  });
});
