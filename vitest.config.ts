import { defineConfig } from 'vitest/config';

// One runner for every suite: unit, contract, integration. Browser tests live in e2e/ and are
// driven by Playwright from e2e/*.test.ts so their results are counted here too.
export default defineConfig({
  test: {
    include: ['bin/**/*.test.ts', 'src-main/**/*.test.ts', 'shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'e2e/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
