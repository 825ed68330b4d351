// Finds a Chromium for the browser suites (Playwright e2e and the http connector's CORS test), or
// installs one. Discovery is pure over a probe so its order is unit-tested without touching the
// machine; bin/test-setup/run-all.ts passes the real probe.

export interface BrowserProbe {
  /** The environment: CHROMIUM_PATH, when set, is the user's explicit choice. */
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
  /** The absolute path of a command on PATH, or undefined. */
  which(command: string): string | undefined;
  /** Where this Playwright version installs its Chromium (`npx playwright install chromium`). */
  playwrightChromium(): string | undefined;
}

export interface FoundBrowser {
  path: string;
  /** How it was found, for the log line: "CHROMIUM_PATH", "Playwright's Chromium", "system chromium". */
  source: string;
}

/** System Chromium names, most specific first (Debian ships `chromium`, Ubuntu's deb `chromium-browser`). */
export const systemChromiumNames = ['chromium', 'chromium-browser'];

/**
 * CHROMIUM_PATH when set (and it must exist: a wrong explicit path is an error, not a silent
 * fallback), else Playwright's installed Chromium, else a system chromium on PATH.
 */
export function findBrowser(probe: BrowserProbe): FoundBrowser | { error: string } | undefined {
  const explicit = probe.env.CHROMIUM_PATH;
  if (explicit) {
    return probe.exists(explicit) ? { path: explicit, source: 'CHROMIUM_PATH' } : { error: `CHROMIUM_PATH=${explicit} does not exist` };
  }
  const playwright = probe.playwrightChromium();
  if (playwright && probe.exists(playwright)) return { path: playwright, source: "Playwright's Chromium" };
  for (const name of systemChromiumNames) {
    const path = probe.which(name);
    if (path) return { path, source: `system ${name}` };
  }
  return undefined;
}

export interface InstallHost {
  /** process.getuid?.() — apt needs root. */
  uid: number | undefined;
  /** The text of /etc/os-release, or '' where it does not exist. */
  osRelease: string;
  hasAptGet: boolean;
}

export interface InstallStep {
  label: string;
  commands: string[][];
}

/** Debian or Ubuntu (or a derivative naming them in ID_LIKE), read from /etc/os-release. */
export function isDebianLike(osRelease: string): boolean {
  const field = (name: string) => osRelease.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1]?.replace(/^"|"$/g, '') ?? '';
  const ids = `${field('ID')} ${field('ID_LIKE')}`.split(/\s+/);
  return ids.includes('debian') || ids.includes('ubuntu');
}

/**
 * What to try, in order: Debian's `chromium` with apt-get when root on Debian or Ubuntu, then
 * Playwright's own download (works as any user; on Ubuntu, whose apt `chromium` is a snap stub
 * that does not run in containers, it is the fallback after apt).
 */
export function installPlan(host: InstallHost): InstallStep[] {
  const steps: InstallStep[] = [];
  if (host.uid === 0 && host.hasAptGet && isDebianLike(host.osRelease)) {
    steps.push({
      label: "Debian's chromium (apt-get)",
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'],
      ],
    });
  }
  steps.push({ label: "Playwright's Chromium (npx playwright install chromium)", commands: [['npx', 'playwright', 'install', 'chromium']] });
  return steps;
}

/** The one line printed when no browser can be found or installed. */
export const noBrowserMessage =
  'npm test needs Chromium and could not install it: run `npx playwright install chromium` (or, as root on Debian/Ubuntu, `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium binary';
