import { defineConfig } from '@playwright/test';

// The studio in Chromium, headless, against web mode: CHROMIUM_PATH, which `npm test` sets to the
// browser it found or installed (bin/test-setup/browser.ts), else Debian's /usr/bin/chromium.
// Results also go to a JSON report that `npm test` sums with the Vitest suite; artifacts stay under
// test-results/e2e/ so Playwright's clean-up never touches other suites' reports.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.e2e.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // Web-first assertions wait for a condition: generous, so a loaded machine only makes them slower.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
