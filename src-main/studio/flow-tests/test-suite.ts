import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errorMessage, formatProblem, isFlowTestFile, LoadError } from '../../runtime/index.ts';
import { runFlowTest, type FlowTestResult } from './flow-test-runner.ts';
import { loadTestFile } from './test-file-loader.ts';

/** A test file that could not be loaded: every problem with file:line:col. */
export interface BrokenTestFile {
  file: string;
  problems: string[];
}

export interface SuiteResult {
  results: FlowTestResult[];
  broken: BrokenTestFile[];
  durationMs: number;
}

/** Every `*.test.yaml` under the paths (a file is itself), in path order; dot folders and node_modules are skipped. */
export function findTestFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isFile()) {
      if (isFlowTestFile(p)) out.push(p);
      return;
    }
    for (const name of readdirSync(p).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = join(p, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (isFlowTestFile(name)) out.push(child);
    }
  };
  for (const p of paths) walk(p);
  return [...new Set(out)];
}

/**
 * Runs the tests of the files one after another (each on its own fresh platform), telling
 * `onResult` as each ends. `only` keeps the tests whose name contains it.
 */
export async function runSuite(files: readonly string[], onResult: (r: FlowTestResult) => void = () => {}, only?: string): Promise<SuiteResult> {
  const started = performance.now();
  const results: FlowTestResult[] = [];
  const broken: BrokenTestFile[] = [];
  for (const file of files) {
    let tests;
    try {
      tests = loadTestFile(file);
    } catch (err) {
      broken.push({ file, problems: err instanceof LoadError ? err.problems.map(formatProblem) : [`${file}: ${errorMessage(err)}`] });
      continue;
    }
    for (const test of tests) {
      if (only && !test.name.includes(only)) continue;
      const r = await runFlowTest(test, dirname(file));
      results.push(r);
      onResult(r);
    }
  }
  return { results, broken, durationMs: Math.round(performance.now() - started) };
}
