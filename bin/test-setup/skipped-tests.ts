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
