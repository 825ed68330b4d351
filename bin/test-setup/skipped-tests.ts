// Reads which test files skipped tests from Vitest's JSON report, so the summary says loudly which
// suites did not run and why instead of folding them into one "N skipped" number.
import { relative } from 'node:path';

/** The part of Vitest's JSON report (`--reporter=json`) read here. */
export interface VitestReport {
  testResults: Array<{ name: string; assertionResults: Array<{ status: string; fullName?: string }> }>;
}

export interface SkippedFile {
  file: string;
  count: number;
}

const isSkip = (status: string) => status === 'skipped' || status === 'pending' || status === 'todo';

/**
 * Skipped tests per file, apart from those that ran in another Vitest project: a file runs once
 * per platform store (SQLite, PostgreSQL, replicas), and a test about one store skips in the
 * others by design (`it.runIf(testStore() === 'sqlite')`). Those are `ranElsewhere`; what is
 * left in `skipped` never ran at all, and is what the summary names loudly.
 */
export function skippedByFile(report: VitestReport, root: string): { skipped: SkippedFile[]; ranElsewhere: SkippedFile[] } {
  const ran = new Set<string>();
  for (const result of report.testResults) {
    for (const test of result.assertionResults) if (!isSkip(test.status) && test.fullName) ran.add(`${result.name}\0${test.fullName}`);
  }
  const count = (elsewhere: boolean): SkippedFile[] => {
    const byFile = new Map<string, number>();
    for (const result of report.testResults) {
      const n = result.assertionResults.filter((test) => isSkip(test.status) && (test.fullName !== undefined && ran.has(`${result.name}\0${test.fullName}`)) === elsewhere).length;
      if (n > 0) byFile.set(relative(root, result.name), (byFile.get(relative(root, result.name)) ?? 0) + n);
    }
    return [...byFile].map(([file, n]) => ({ file, count: n })).sort((a, b) => a.file.localeCompare(b.file));
  };
  return { skipped: count(false), ranElsewhere: count(true) };
}

/** One line per skipping file, with the reason a setup step gave for its folder where there is one. */
export function skipLines(skipped: SkippedFile[], reasons: Array<{ testPaths: string[]; reason: string }>): string[] {
  return skipped.map(({ file, count }) => {
    const reason = reasons.find((r) => r.testPaths.some((path) => file.startsWith(path)))?.reason;
    return `  SKIPPED ${count} test${count === 1 ? '' : 's'} in ${file}${reason ? ` — ${reason}` : ''}`;
  });
}

/** One quiet line for the by-design skips of tests that ran in another Vitest project. */
export function ranElsewhereLine(ranElsewhere: SkippedFile[]): string[] {
  if (ranElsewhere.length === 0) return [];
  const total = ranElsewhere.reduce((sum, { count }) => sum + count, 0);
  const files = ranElsewhere.map(({ file }) => file).join(', ');
  return [`  (${total} more skipped by design: test${total === 1 ? '' : 's'} for one platform store, run in that store's Vitest project and skipped in the others: ${files})`];
}

/** The part of Playwright's JSON report read here. */
export interface PlaywrightSuite {
  specs?: Array<{ title: string; file: string; tests: Array<{ status: string; annotations?: Array<{ type: string; description?: string }> }> }>;
  suites?: PlaywrightSuite[];
}

/** Calls `visit` for every spec of a Playwright report, however deep its describe blocks nest. */
export function forEachSpec<S extends { suites?: S[]; specs?: unknown[] }>(suites: readonly S[] | undefined, visit: (spec: NonNullable<S['specs']>[number]) => void): void {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) visit(spec as NonNullable<S['specs']>[number]);
    forEachSpec(suite.suites, visit);
  }
}

/** One line per skipped browser test, with the reason its `test.skip(condition, reason)` gave. */
export function skippedE2eLines(report: { suites?: PlaywrightSuite[] }): string[] {
  const lines: string[] = [];
  forEachSpec(report.suites, (spec) => {
    for (const test of spec.tests) {
      if (test.status !== 'skipped') continue;
      const reason = test.annotations?.find((a) => a.type === 'skip' && a.description)?.description;
      lines.push(`  SKIPPED e2e "${spec.title}" in ${spec.file}${reason ? ` — ${reason}` : ''}`);
    }
  });
  return lines;
}
