/**
 * JSON text of an answer. JSON.stringify throws on bigint and Node 20 has no JSON.rawJSON, yet
 * int64 ids above 2^53 (monitoring event ids, nanosecond times) must be written as exact JSON
 * numbers, digit for digit; so the text is built here: bigint as its decimal digits, everything
 * else as JSON.stringify writes it (undefined members left out, undefined items as null).
 */
export function jsonText(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((v: unknown) => (v === undefined ? 'null' : jsonText(v))).join(',')}]`;
      const members: string[] = [];
      for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') members.push(`${JSON.stringify(k)}:${jsonText(v)}`);
      return `{${members.join(',')}}`;
    }
    default:
      return 'null';
  }
}
