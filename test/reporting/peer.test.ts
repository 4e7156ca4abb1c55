import { describe, expect, it } from 'vitest';
import { commandAvailable, requirePeer, underCi } from '../helpers/peer.js';

describe('requirePeer', () => {
  it('runs dependent tests when the peer is there', () => {
    expect(requirePeer('xmllint', true, undefined, { CI: 'true' })).toEqual({ name: 'xmllint', available: true, skip: false, required: false, reason: '' });
  });

  it('skips with a visible reason locally', () => {
    const p = requirePeer('postgres', false, 'set PGURL', {});
    expect(p).toMatchObject({ skip: true, required: false });
    expect(p.reason).toBe('postgres is not available (set PGURL)');
  });

  it('fails under CI instead of skipping', () => {
    const p = requirePeer('postgres', false, undefined, { CI: '1' });
    expect(p).toMatchObject({ skip: true, required: true });
    expect(p.reason).toContain('required because CI is set');
  });

  it('reads CI the way CI providers set it', () => {
    expect(underCi({ CI: 'true' })).toBe(true);
    expect(underCi({ CI: 'false' })).toBe(false);
    expect(underCi({ CI: '' })).toBe(false);
    expect(underCi({})).toBe(false);
  });

  it('detects commands by spawning them', () => {
    expect(commandAvailable(process.execPath)).toBe(true);
    expect(commandAvailable('specgate-no-such-command-xyz')).toBe(false);
  });
});
