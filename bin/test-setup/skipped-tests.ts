// Reads which test files skipped tests from Vitest's JSON report, so the summary says loudly which
// suites did not run and why instead of folding them into one "N skipped" number.
import { relative } from 'node:path';

/** The part of Vitest's JSON report (`--reporter=json`) read here. */
export interface VitestReport {
  testResults: Array<{ name: string; assertionResults: Array<{ status: string }> }>;
}

export interface SkippedFile {
  file: string;
  count: number;
}

export function skippedByFile(report: VitestReport, root: string): SkippedFile[] {
  const skipped: SkippedFile[] = [];
  for (const result of report.testResults) {
    const count = result.assertionResults.filter((test) => test.status === 'skipped' || test.status === 'pending' || test.status === 'todo').length;
    if (count > 0) skipped.push({ file: relative(root, result.name), count });
  }
  return skipped.sort((a, b) => a.file.localeCompare(b.file));
}

/** One line per skipping file, with the reason a setup step gave for its folder where there is one. */
export function skipLines(skipped: SkippedFile[], reasons: Array<{ testPaths: string[]; reason: string }>): string[] {
  return skipped.map(({ file, count }) => {
    const reason = reasons.find((r) => r.testPaths.some((path) => file.startsWith(path)))?.reason;
    return `  SKIPPED ${count} test${count === 1 ? '' : 's'} in ${file}${reason ? ` — ${reason}` : ''}`;
  });
}

/** The part of Playwright's JSON report read here. */
export interface PlaywrightSuite {
  specs?: Array<{ title: string; file: string; tests: Array<{ status: string; annotations?: Array<{ type: string; description?: string }> }> }>;
  suites?: PlaywrightSuite[];
}

/** One line per skipped browser test, with the reason its `test.skip(condition, reason)` gave. */
export function skippedE2eLines(report: { suites?: PlaywrightSuite[] }): string[] {
  const lines: string[] = [];
  const walk = (suite: PlaywrightSuite): void => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'skipped') continue;
        const reason = test.annotations?.find((a) => a.type === 'skip' && a.description)?.description;
        lines.push(`  SKIPPED e2e "${spec.title}" in ${spec.file}${reason ? ` — ${reason}` : ''}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return lines;
}
