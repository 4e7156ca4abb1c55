import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, reservedRange } from '../../src/targets/free-port.js';

describe('freePort', () => {
  it('reads the system ephemeral range, with the IANA range when it cannot', () => {
    expect(ephemeralRange(() => '32768\t60999\n')).toEqual([32768, 60999]);
    expect(ephemeralRange(() => 'garbage')).toEqual([49152, 65535]);
    expect(
      ephemeralRange(() => {
        throw new Error('no /proc');
      }),
    ).toEqual([49152, 65535]);
  });

  it('picks below the ephemeral range, or above it when the range starts too low', () => {
    expect(reservedRange([32768, 60999])).toEqual([20000, 32767]);
    expect(reservedRange([1024, 60000])).toEqual([60001, 65535]);
    expect(reservedRange([1024, 65000])).toEqual([20000, 65535]);
  });

  it('gives a port a server can listen on, never one port 0 would hand to another server', async () => {
    const [lo, hi] = reservedRange(ephemeralRange());
    const ports = await Promise.all(Array.from({ length: 8 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(lo);
      expect(port).toBeLessThanOrEqual(hi);
      const s = createServer();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });
});
