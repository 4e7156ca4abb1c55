import { describe, expect, it } from 'vitest';
import { endToEnd } from '../../src/targets/hop-by-hop.js';

describe('endToEnd', () => {
  it('drops the connection fields and those Connection names, keeping the rest', () => {
    const kept = endToEnd({ 'content-type': 'application/json', 'keep-alive': 'timeout=60', connection: 'keep-alive, X-Hop', 'x-hop': '1', 'transfer-encoding': 'chunked', 'x-trace': 't-1', host: 'a.test' });
    expect(kept).toEqual({ 'content-type': 'application/json', 'x-trace': 't-1', host: 'a.test' });
  });
});
