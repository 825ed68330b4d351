import { mkdirSync, statSync, watch, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ComponentRegistry, definitionFilesIn, loadRegistry, readDefinitions } from '../runtime/index.ts';
import { coverageOf } from '../studio/flow-tests/coverage.ts';
import type { FlowTestResult } from '../studio/flow-tests/flow-test-runner.ts';
import { junitReport } from '../studio/flow-tests/junit-report.ts';
import { findTestFiles, runSuite, type SuiteResult } from '../studio/flow-tests/test-suite.ts';
import { coverageText, failureText } from '../studio/flow-tests/text-report.ts';

const USAGE = `usage: flow-studio test [path...] [--reporter text|junit] [--output FILE] [--coverage] [--watch] [--grep TEXT]

Runs every flow test (<name>.test.yaml) under the paths (default: the current folder), each on a
fresh embedded platform, and prints one line per test and a summary; exits 1 when one fails.
  --reporter junit   write JUnit XML (to --output FILE, else to stdout instead of the text lines)
  --coverage         print which steps and switch/filter branches the tests went through
  --watch            run again whenever a definition, test or fixture changes (Ctrl-C stops)
  --grep TEXT        only the tests whose name contains TEXT (exits 1 when none does)
The format: docs/testing.md.`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        reporter: { type: 'string', default: 'text' },
        output: { type: 'string' },
        coverage: { type: 'boolean', default: false },
        watch: { type: 'boolean', default: false },
        grep: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    console.error(`flow-studio test: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const o = parsed.values;
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  if (o.reporter !== 'text' && o.reporter !== 'junit') {
    console.error(`flow-studio test: --reporter ${o.reporter} is not one of text, junit`);
    return 2;
  }
  const paths = parsed.positionals.length > 0 ? parsed.positionals : ['.'];
  if (o.output) {
    // CI passes a report path in a folder nothing made yet (reports/flow-tests.xml): made here,
    // and a path that cannot be written is said before the tests run, not after.
    const problem = reportPathProblem(o.output);
    if (problem) {
      console.error(`flow-studio test: cannot write the report to ${o.output}: ${problem}`);
      return 1;
    }
  }
  const junitToStdout = o.reporter === 'junit' && !o.output;
  const print = (line: string) => {
    if (!junitToStdout) console.log(line);
  };

  const once = async (): Promise<number> => {
    const files = findTestFiles(paths);
    if (files.length === 0) {
      console.error(`flow-studio test: no test files (*.test.yaml) under ${paths.join(', ')}`);
      return 1;
    }
    const suite = await runSuite(files, (r) => print(resultLine(r)), o.grep);
    for (const b of suite.broken) print(`✗ ${show(b.file)} does not load:\n${b.problems.map((p) => `    ${p}`).join('\n')}`);
    if (o.coverage) print(coverageReport(suite, await loadRegistry()));
    print(summary(suite));
    if (o.reporter === 'junit') {
      const xml = junitReport(suite);
      if (!o.output) process.stdout.write(xml);
      else {
        try {
          writeFileSync(o.output, xml);
        } catch (err) {
          console.error(`flow-studio test: cannot write the report to ${o.output}: ${(err as Error).message}`);
          return 1;
        }
      }
    }
    if (o.grep !== undefined && suite.results.length === 0) {
      // A mistyped --grep in CI would otherwise pass having run nothing.
      console.error(`flow-studio test: no test whose name contains "${o.grep}" under ${paths.join(', ')}`);
      return 1;
    }
    return suite.broken.length > 0 || suite.results.some((r) => !r.passed) ? 1 : 0;
  };

  const code = await once();
  if (!o.watch) return code;
  print('\nwatching for changes (Ctrl-C stops)');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const watchers = paths.map((p) =>
    watch(p, { recursive: true }, (_event, name) => {
      // Any change counts: an editor that saves through a temporary file and a rename reports only the temporary name.
      if (name && /(^|\/)(node_modules|\.git)(\/|$)/.test(String(name))) return;
      clearTimeout(timer);
      // Editors write a file in several steps; one run per burst of changes.
      timer = setTimeout(() => {
        running = running.then(async () => {
          print(`\n— ${new Date().toLocaleTimeString()} ${name ?? ''} changed; running again`);
          await once();
        });
      }, 200);
    }),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const w of watchers) w.close();
  clearTimeout(timer);
  return 0;
}

/** Why a report cannot be written at `output`, after making its folder; undefined when it can. */
function reportPathProblem(output: string): string | undefined {
  try {
    if (statSync(output, { throwIfNoEntry: false })?.isDirectory()) return 'it is a folder; give a file name such as flow-tests.xml';
    mkdirSync(dirname(resolve(output)), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EEXIST' || code === 'ENOTDIR' ? `a file is in the way of its folder ${dirname(output)}` : (err as Error).message;
  }
  return undefined;
}

function show(file: string): string {
  return relative(process.cwd(), file) || file;
}

function resultLine(r: FlowTestResult): string {
  const head = `${r.passed ? '✓' : '✗'} ${show(r.file)} › ${r.name} (${r.durationMs} ms)`;
  if (r.passed) return head;
  return [head, ...r.failures.map((f) => failureText(f).replace(/^/gm, '    '))].join('\n');
}

function summary(s: SuiteResult): string {
  const passed = s.results.filter((r) => r.passed).length;
  const failed = s.results.length - passed;
  const broken = s.broken.length ? `, ${s.broken.length} test file${s.broken.length === 1 ? '' : 's'} not loaded` : '';
  return `\n${passed} passed, ${failed} failed${broken} (${s.results.length} test${s.results.length === 1 ? '' : 's'}, ${s.durationMs} ms)`;
}

function coverageReport(s: SuiteResult, registry: ComponentRegistry): string {
  const byDir = new Map<string, FlowTestResult[]>();
  for (const r of s.results) byDir.set(dirname(r.file), [...(byDir.get(dirname(r.file)) ?? []), r]);
  const parts: string[] = [''];
  for (const [dir, results] of byDir) {
    const texts = readDefinitions(definitionFilesIn(dir));
    parts.push(coverageText(show(dir), coverageOf(texts, registry, results.flatMap((r) => r.events))));
  }
  return parts.join('\n');
}
