import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSpecgateError } from '../../../src/errors.js';
import { CHROMIUM_HINT, DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, DEBIAN_PLACES, findChromium, requireChromium } from '../../../src/targets/browser/find-chromium.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';
import { tempDir } from '../../e2e/cli.js';

/** Debian's headless shell, the browser specgate takes first: under CI, the one every browser test runs. */
const headlessShell = requirePeer('chromium-headless-shell', existsSync(DEBIAN_HEADLESS_SHELL), 'apt-get install chromium-headless-shell');
declarePeer(headlessShell);

const tmp = tempDir('sg-find-chromium-');
afterAll(() => tmp.remove());

/** An executable (or, with another mode, a plain file) named `name` in `dir`. */
function fake(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('finding Chromium', () => {
  it('refuses a SPECGATE_CHROMIUM that is no executable, saying what to do', () => {
    const env = { SPECGATE_CHROMIUM: '/nonexistent/chromium', PATH: '' };
    expect(findChromium(env)).toBeUndefined();
    let thrown: unknown;
    try {
      requireChromium(env);
    } catch (e) {
      thrown = e;
    }
    expect(isSpecgateError(thrown) && thrown.code).toBe('SG_CONFIG');
    expect((thrown as Error).message).toMatch(/SPECGATE_CHROMIUM=\/nonexistent\/chromium is not an executable file.*apt-get install chromium-headless-shell.*apt-get install chromium\).*SPECGATE_CHROMIUM=<path/);
  });

  it('takes SPECGATE_CHROMIUM first when it names an executable; `none` is no browser; empty is as unset', () => {
    const whole = fake(join(tmp.dir, 'named'), 'chromium');
    expect(findChromium({ SPECGATE_CHROMIUM: process.execPath, PATH: '' }, [whole])).toBe(process.execPath);
    expect(findChromium({ SPECGATE_CHROMIUM: 'none', PATH: '' }, [whole])).toBeUndefined();
    expect(findChromium({ SPECGATE_CHROMIUM: '', PATH: '' }, [whole])).toBe(whole);
  });

  it("looks at Debian's headless shell, then its whole browser", () => {
    expect(DEBIAN_PLACES).toEqual([DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]);
  });

  it('then takes the first of the places that is an executable file, then chromium-headless-shell, then chromium, on PATH', () => {
    const dir = join(tmp.dir, 'order');
    const [shell, whole, plain] = [fake(dir, 'chromium-headless-shell'), fake(dir, 'chromium'), fake(dir, 'not-executable', 0o644)];
    const bin = join(dir, 'bin');
    const env = { PATH: [bin, dir].join(delimiter) };
    mkdirSync(bin);
    // the places in their order, a plain file and a missing one passed over
    expect(findChromium(env, [plain, whole, shell])).toBe(whole);
    expect(findChromium(env, [join(dir, 'absent'), shell, whole])).toBe(shell);
    // none of the places: PATH, the headless shell first even where a chromium comes earlier on it
    const earlier = fake(bin, 'chromium');
    expect(findChromium(env, [plain])).toBe(shell);
    rmSync(shell);
    expect(findChromium(env, [plain])).toBe(earlier);
    expect(findChromium({ PATH: '' }, [plain])).toBeUndefined();
  });

  it('says where it looked when it finds none, and how to get one', () => {
    const absent = join(tmp.dir, 'absent');
    let thrown: unknown;
    try {
      requireChromium({ PATH: '' }, [absent]);
    } catch (e) {
      thrown = e;
    }
    expect(isSpecgateError(thrown) && thrown.code).toBe('SG_CONFIG');
    expect((thrown as Error).message).toContain(`no Chromium found (SPECGATE_CHROMIUM unset, none of ${absent}, neither chromium-headless-shell nor chromium on PATH): browser-driven cases need one; ${CHROMIUM_HINT}`);
  });

  it.skipIf(headlessShell.skip)("finds Debian's headless shell first where it is installed", () => {
    expect(findChromium({ PATH: '' })).toBe(DEBIAN_HEADLESS_SHELL);
  });
});
