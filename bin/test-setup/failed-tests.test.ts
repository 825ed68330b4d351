import { describe, expect, it } from 'vitest';
import { failedE2eLines, failedVitestLines, firstErrorLine } from './failed-tests.ts';

describe('the npm test summary names the tests that failed', () => {
  it('gives each failed Vitest test with its file and the first line of its error, colour codes removed', () => {
    const report = {
      testResults: [
        {
          name: '/repo/src-main/runtime/trace-export.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'trace export > sends spans' },
            { status: 'failed', fullName: 'trace export > keeps failed runs', failureMessages: ['\u001b[31mAssertionError: expected 3 to be 4\u001b[39m\n    at trace-export.test.ts:40:5'] },
          ],
        },
        { name: '/repo/src-main/platform/kv.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'kv > puts' }] },
      ],
    };
    expect(failedVitestLines(report, '/repo')).toEqual(['  FAILED src-main/runtime/trace-export.test.ts › trace export > keeps failed runs — AssertionError: expected 3 to be 4']);
  });

  it('names a file that failed before any of its tests ran', () => {
    const report = { testResults: [{ name: '/repo/src-main/a.test.ts', status: 'failed', message: "\nFailed to load url ./missing.ts\n", assertionResults: [] }] };
    expect(failedVitestLines(report, '/repo')).toEqual(['  FAILED src-main/a.test.ts — Failed to load url ./missing.ts']);
  });

  it('gives each browser test that failed on its last attempt, and not one that passed on a retry', () => {
    const report = {
      suites: [
        {
          specs: [
            { title: 'opens a trace', file: 'studio-shell.e2e.ts', line: 44, tests: [{ status: 'unexpected', results: [{ error: { message: 'first try' } }, { error: { message: 'Error: expect(locator).toBeVisible() failed\nLocator: …' } }] }] },
            { title: 'retried', file: 'feed-load.e2e.ts', tests: [{ status: 'flaky', results: [{ error: { message: 'boom' } }, {}] }] },
          ],
        },
      ],
    };
    expect(failedE2eLines(report)).toEqual(['  FAILED e2e "opens a trace" in studio-shell.e2e.ts:44 — Error: expect(locator).toBeVisible() failed']);
  });

  it('cuts a long error line and says nothing where there is no message', () => {
    expect(firstErrorLine('x'.repeat(500), 10)).toBe('xxxxxxxxx…');
    expect(firstErrorLine(undefined)).toBe('');
    expect(failedVitestLines({ testResults: [{ name: '/r/b.test.ts', assertionResults: [{ status: 'failed', fullName: 'b' }] }] }, '/r')).toEqual(['  FAILED b.test.ts › b']);
  });
});
