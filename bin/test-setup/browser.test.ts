import { describe, expect, it } from 'vitest';
import { findBrowser, installPlan, isDebianLike, type BrowserProbe } from './browser.ts';

const probe = (files: string[], onPath: Record<string, string>, env: Record<string, string> = {}, playwright = '/home/u/.cache/ms-playwright/chromium-1194/chrome-linux/chrome'): BrowserProbe => ({
  env,
  exists: (path) => files.includes(path),
  which: (command) => onPath[command],
  playwrightChromium: () => playwright,
});

describe('npm test finds a browser', () => {
  it("prefers Playwright's installed Chromium over a system chromium", () => {
    const pw = '/home/u/.cache/ms-playwright/chromium-1194/chrome-linux/chrome';
    expect(findBrowser(probe([pw, '/usr/bin/chromium'], { chromium: '/usr/bin/chromium' }))).toEqual({ path: pw, source: "Playwright's Chromium" });
  });

  it("falls back to a system chromium on PATH when Playwright's is not installed", () => {
    expect(findBrowser(probe(['/usr/bin/chromium'], { chromium: '/usr/bin/chromium' }))).toEqual({ path: '/usr/bin/chromium', source: 'system chromium' });
    expect(findBrowser(probe([], { 'chromium-browser': '/usr/bin/chromium-browser' }))).toEqual({ path: '/usr/bin/chromium-browser', source: 'system chromium-browser' });
  });

  it('takes CHROMIUM_PATH first, and says so when it points nowhere rather than silently using another', () => {
    expect(findBrowser(probe(['/opt/chrome'], { chromium: '/usr/bin/chromium' }, { CHROMIUM_PATH: '/opt/chrome' }))).toEqual({ path: '/opt/chrome', source: 'CHROMIUM_PATH' });
    expect(findBrowser(probe([], { chromium: '/usr/bin/chromium' }, { CHROMIUM_PATH: '/opt/nothing' }))).toEqual({ error: 'CHROMIUM_PATH=/opt/nothing does not exist' });
  });

  it('finds nothing when no browser exists anywhere', () => {
    expect(findBrowser(probe([], {}))).toBeUndefined();
  });
});

const debian = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const ubuntu = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const mint = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n';
const fedora = 'NAME="Fedora Linux"\nID=fedora\n';

describe('npm test installs a browser when none is found', () => {
  it('recognises Debian, Ubuntu and their derivatives from /etc/os-release', () => {
    expect([debian, ubuntu, mint, fedora, ''].map(isDebianLike)).toEqual([true, true, true, false, false]);
  });

  it("installs Debian's chromium with apt-get as root on Debian, then Playwright's as the fallback", () => {
    const plan = installPlan({ uid: 0, osRelease: debian, hasAptGet: true });
    expect(plan.map((step) => step.commands)).toEqual([
      [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'],
      ],
      [['npx', 'playwright', 'install', 'chromium']],
    ]);
  });

  it("uses only Playwright's download when not root, not Debian-like, or without apt-get", () => {
    const playwrightOnly = [[['npx', 'playwright', 'install', 'chromium']]];
    expect(installPlan({ uid: 1000, osRelease: debian, hasAptGet: true }).map((s) => s.commands)).toEqual(playwrightOnly);
    expect(installPlan({ uid: 0, osRelease: fedora, hasAptGet: false }).map((s) => s.commands)).toEqual(playwrightOnly);
    expect(installPlan({ uid: 0, osRelease: debian, hasAptGet: false }).map((s) => s.commands)).toEqual(playwrightOnly);
    expect(installPlan({ uid: undefined, osRelease: ubuntu, hasAptGet: true }).map((s) => s.commands)).toEqual(playwrightOnly);
  });
});
