import { describe, expect, it } from 'vitest';

/** A played server a probe looks at. */
interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Proves every planted fault of a reference service really shows: for each fault, its probe
 * reads false on the clean service and true on the one started with the fault's options; and
 * every fault has a probe. `start` starts the service with options (`{}` for the clean one).
 */
export function describeFaultProbes<O, S extends Stoppable>(
  title: string,
  faults: Readonly<Record<string, { description: string; options: O }>>,
  probes: Readonly<Record<string, (s: S) => Promise<boolean>>>,
  start: (options: O | undefined) => Promise<S>,
): void {
  async function observe(name: string, options: O | undefined): Promise<boolean> {
    const probe = probes[name];
    if (!probe) throw new TypeError(`no probe for fault ${name}`);
    const s = await start(options);
    try {
      return await probe(s);
    } finally {
      await s.stop();
    }
  }

  describe(title, () => {
    it('has a probe for every planted fault', () => {
      expect(Object.keys(probes).sort()).toEqual(Object.keys(faults).sort());
    });

    for (const [name, fault] of Object.entries(faults)) {
      it(`${name}: ${fault.description}`, async () => {
        expect(await observe(name, undefined)).toBe(false);
        expect(await observe(name, fault.options)).toBe(true);
      });
    }
  });
}
