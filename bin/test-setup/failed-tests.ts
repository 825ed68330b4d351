// Names the tests that failed, with the first line of their error, at the end of `npm test`: CI
// keeps only the tail of a long run, and "1 failed" alone leaves nobody able to tell which.
import { relative } from 'node:path';
import { forEachSpec } from './skipped-tests.ts';

/** The part of Vitest's JSON report (`--reporter=json`) read here. */
export interface VitestFailureReport {
  testResults: Array<{
    name: string;
    status?: string;
    message?: string;
    assertionResults: Array<{ status: string; fullName?: string; failureMessages?: string[] }>;
  }>;
}

/** The part of Playwright's JSON report read here. */
export interface PlaywrightFailureSuite {
  specs?: Array<{ title: string; file: string; line?: number; tests: Array<{ status: string; results?: Array<{ error?: { message?: string } }> }> }>;
  suites?: PlaywrightFailureSuite[];
}

const ansi = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');

/** The first non-empty line of an error, without colour codes, cut to a length a log line can carry. */
export function firstErrorLine(message: string | undefined, max = 240): string {
  const line = (message ?? '').replace(ansi, '').split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const withReason = (head: string, message: string | undefined): string => {
  const reason = firstErrorLine(message);
  return reason ? `${head} — ${reason}` : head;
};

/** One line per failed Vitest test; a file that failed before any test ran (an import, a hook) is named by itself. */
export function failedVitestLines(report: VitestFailureReport, root: string): string[] {
  const lines: string[] = [];
  for (const result of report.testResults) {
    const file = relative(root, result.name);
    const failed = result.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(withReason(`  FAILED ${file} › ${test.fullName ?? '(unnamed test)'}`, test.failureMessages?.[0]));
    if (failed.length === 0 && result.status === 'failed') lines.push(withReason(`  FAILED ${file}`, result.message));
  }
  return lines;
}

/** One line per browser test that failed on its last attempt (a flaky pass is not a failure). */
export function failedE2eLines(report: { suites?: PlaywrightFailureSuite[] }): string[] {
  const lines: string[] = [];
  forEachSpec(report.suites, (spec) => {
    for (const test of spec.tests) {
      if (test.status !== 'unexpected') continue;
      const error = test.results?.at(-1)?.error?.message;
      lines.push(withReason(`  FAILED e2e "${spec.title}" in ${spec.file}${spec.line ? `:${spec.line}` : ''}`, error));
    }
  });
  return lines;
}
