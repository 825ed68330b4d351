#!/usr/bin/env node
// `npm test`: every suite (Vitest, then Playwright e2e when configured), each run whatever the
// other did, ending with one line summing them all: `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = 'test-results';
mkdirSync(out, { recursive: true });
const suites = [
  {
    name: 'vitest',
    report: `${out}/vitest.json`,
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest.json`, ...process.argv.slice(2)],
    count: (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTests ?? 0), skipped: r.numPendingTests + r.numTodoTests }),
  },
  {
    name: 'playwright',
    enabled: existsSync('playwright.config.ts') && process.argv.length <= 2,
    report: `${out}/e2e-results.json`,
    command: ['npx', 'playwright', 'test'],
    count: (r) => ({ passed: r.stats.expected + (r.stats.flaky ?? 0), failed: r.stats.unexpected, skipped: r.stats.skipped }),
  },
];

const total = { passed: 0, failed: 0, skipped: 0 };
let broken = false;
for (const suite of suites) {
  if (suite.enabled === false) continue;
  rmSync(suite.report, { force: true });
  const run = spawnSync(suite.command[0], suite.command.slice(1), { stdio: 'inherit', env: process.env });
  let counts;
  try {
    counts = suite.count(JSON.parse(readFileSync(suite.report, 'utf8')));
  } catch {
    console.error(`${suite.name}: no report at ${suite.report} (exit ${run.status}); counting the suite as failed`);
    broken = true;
    total.failed += 1;
    continue;
  }
  if (run.status !== 0 && counts.failed === 0) {
    console.error(`${suite.name}: exited ${run.status} with no failed test; counting that as a failure`);
    counts.failed = 1;
  }
  console.log(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || broken ? 1 : 0);
