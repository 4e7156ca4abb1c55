import { existsSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeChromiumHome } from '../../../src/targets/browser/chromium-home.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { launchBrowser } from '../../../src/targets/browser/launch-browser.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

const inside = (dir: string, path: string): boolean => path.startsWith(dir + sep);

describe('a temporary home for Chromium', () => {
  it('moves the home and every XDG folder into one fresh folder, and keeps the rest of the environment', () => {
    const home = makeChromiumHome({ PATH: '/usr/bin', HOME: '/home/someone', XDG_CACHE_HOME: '/home/someone/.cache', TZ: 'UTC' });
    try {
      for (const name of ['HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR']) {
        const path = home.env[name] ?? '';
        expect([name, inside(home.dir, path), statSync(path).isDirectory()]).toEqual([name, true, true]);
      }
      // the XDG rules want the runtime folder to be the user's alone
      expect(statSync(home.env['XDG_RUNTIME_DIR'] ?? '').mode & 0o777).toBe(0o700);
      expect(home.env).toMatchObject({ PATH: '/usr/bin', TZ: 'UTC', GSETTINGS_BACKEND: 'memory' });
      expect([inside(home.dir, home.profileDir), inside(home.dir, home.crashDir)]).toEqual([true, true]);
    } finally {
      home.remove();
    }
    expect(existsSync(home.dir)).toBe(false);
    // twice is harmless
    home.remove();
  });

  it('gives each browser a folder of its own', () => {
    const a = makeChromiumHome({});
    const b = makeChromiumHome({});
    try {
      expect(a.dir).not.toBe(b.dir);
    } finally {
      a.remove();
      b.remove();
    }
  });
});

describe.skipIf(chromium.skip)('a browser with a profile of its own', () => {
  it('keeps its profile inside its temporary home, and removes both on close', async () => {
    const browser = await launchBrowser(new AbortController().signal);
    const folder = dirname(browser.profileDir);
    try {
      expect(existsSync(join(folder, 'home'))).toBe(true);
    } finally {
      await browser.close();
    }
    expect(existsSync(folder)).toBe(false);
  }, 60_000);
});
