/**
 * The three response formats of the token and device-code endpoints (spec 000, B,
 * Endpoints 2 and 4): form-encoded by default, JSON with `Accept: application/json`,
 * XML (root element `OAuth`) with `Accept: application/xml`.
 */
export type ResponseFormat = 'form' | 'json' | 'xml';

/** An ordered list of response fields; order matters for the XML children. */
export type Fields = ReadonlyArray<readonly [string, string | number]>;

export interface EncodedBody {
  contentType: string;
  body: string;
}

/** Picks the format from an Accept header; anything else gets the form-encoded default. */
export function negotiateFormat(accept: string | undefined): ResponseFormat {
  if (!accept) return 'form';
  const types = accept
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const t of types) {
    if (t.type === 'application/json') return 'json';
    if (t.type === 'application/xml' || t.type === 'text/xml') return 'xml';
  }
  return 'form';
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Encodes fields in `format`; numbers stay numbers in JSON only. */
export function encodeFields(fields: Fields, format: ResponseFormat): EncodedBody {
  switch (format) {
    case 'json':
      return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(Object.fromEntries(fields)) };
    case 'xml': {
      const children = fields.map(([k, v]) => `<${k}>${escapeXml(String(v))}</${k}>`).join('');
      return { contentType: 'application/xml; charset=utf-8', body: `<?xml version="1.0" encoding="UTF-8"?>\n<OAuth>${children}</OAuth>` };
    }
    case 'form':
      return {
        contentType: 'application/x-www-form-urlencoded; charset=utf-8',
        body: new URLSearchParams(fields.map(([k, v]): [string, string] => [k, String(v)])).toString(),
      };
  }
}

/** Access token response fields in the order the spec lists the XML children. */
export function tokenFields(accessToken: string, scope: string): Fields {
  return [
    ['token_type', 'bearer'],
    ['scope', scope],
    ['access_token', accessToken],
  ];
}

/** Error response fields; `extra` carries e.g. the new `interval` of slow_down. */
export function errorFields(error: string, description: string, extra: Fields = []): Fields {
  return [['error', error], ['error_description', description], ...extra];
}
