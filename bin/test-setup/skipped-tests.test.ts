import { describe, expect, it } from 'vitest';
import { ranElsewhereLine, skippedE2eLines, skipLines, skippedByFile } from './skipped-tests.ts';

const report = {
  testResults: [
    { name: '/repo/src-main/runtime/connectors/docstore/find.test.ts', assertionResults: [{ status: 'skipped', fullName: 'a' }, { status: 'pending', fullName: 'b' }, { status: 'passed', fullName: 'c' }] },
    { name: '/repo/src-main/platform/kv.test.ts', assertionResults: [{ status: 'passed', fullName: 'on sqlite' }] },
    { name: '/repo/src-main/runtime/connectors/http/browser.test.ts', assertionResults: [{ status: 'skipped', fullName: 'cors' }] },
  ],
};

// kv.test.ts as it runs in two Vitest projects: the SQLite-only test passes in one and skips in the other.
const twoProjects = {
  testResults: [
    { name: '/repo/src-main/platform/kv.test.ts', assertionResults: [{ status: 'passed', fullName: 'on sqlite' }, { status: 'skipped', fullName: 'on postgres' }] },
    { name: '/repo/src-main/platform/kv.test.ts', assertionResults: [{ status: 'skipped', fullName: 'on sqlite' }, { status: 'skipped', fullName: 'on postgres' }] },
  ],
};

describe('the npm test summary names the suites that skipped', () => {
  it('counts skipped tests per file, relative to the repository', () => {
    expect(skippedByFile(report, '/repo')).toEqual({
      skipped: [
        { file: 'src-main/runtime/connectors/docstore/find.test.ts', count: 2 },
        { file: 'src-main/runtime/connectors/http/browser.test.ts', count: 1 },
      ],
      ranElsewhere: [],
    });
  });

  it('says why where a setup step knows the reason', () => {
    const lines = skipLines(skippedByFile(report, '/repo').skipped, [{ testPaths: ['src-main/runtime/connectors/docstore/'], reason: 'FerretDB not running' }]);
    expect(lines).toEqual([
      '  SKIPPED 2 tests in src-main/runtime/connectors/docstore/find.test.ts — FerretDB not running',
      '  SKIPPED 1 test in src-main/runtime/connectors/http/browser.test.ts',
    ]);
  });

  it('sets apart a skip of a test that ran in another Vitest project, and still names one that ran nowhere', () => {
    const { skipped, ranElsewhere } = skippedByFile(twoProjects, '/repo');
    expect(skipped).toEqual([{ file: 'src-main/platform/kv.test.ts', count: 2 }]);
    expect(ranElsewhere).toEqual([{ file: 'src-main/platform/kv.test.ts', count: 1 }]);
    expect(ranElsewhereLine(ranElsewhere)).toEqual([
      "  (1 more skipped by design: test for one platform store, run in that store's Vitest project and skipped in the others: src-main/platform/kv.test.ts)",
    ]);
    expect(ranElsewhereLine([])).toEqual([]);
  });
});

describe('the npm test summary names the browser tests that skipped', () => {
  it('gives each skipped e2e test with the reason its test.skip gave', () => {
    const report = {
      suites: [
        {
          specs: [{ title: 'shows the studio', file: 'studio-shell.e2e.ts', tests: [{ status: 'expected', annotations: [] }] }],
          suites: [
            {
              specs: [
                {
                  title: 'opens its window on the studio',
                  file: 'electron-launch.e2e.ts',
                  tests: [{ status: 'skipped', annotations: [{ type: 'skip', description: 'the Electron binary is not downloaded on this machine' }] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(skippedE2eLines(report)).toEqual(['  SKIPPED e2e "opens its window on the studio" in electron-launch.e2e.ts — the Electron binary is not downloaded on this machine']);
  });
});
