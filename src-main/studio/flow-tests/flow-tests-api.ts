import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FlowTestFileView, FlowTestResultView, FlowTestsApi, RerunResult } from '../../../shared/flow-test-types.ts';
import type { CaptureDetail } from '../../../shared/request-types.ts';
import { type ComponentRegistry, definitionFilesIn, isFlowTestFile, LoadError, readDefinitions, type TraceRecord } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import { storedStepAt } from '../traces/run-detail.ts';
import type { RunStore } from '../traces/run-store.ts';
import type { Workspace } from '../workspace.ts';
import { coverageOf } from './coverage.ts';
import { runFlowTest, type FlowTestResult } from './flow-test-runner.ts';
import { stubOfCall, testFromRun } from './run-as-test.ts';
import { loadTestFile, type FlowTest } from './test-file-loader.ts';

export interface FlowTestsApiOptions {
  workspace: Workspace;
  runs: RunStore;
  registry: ComponentRegistry;
  captureDetail(id: number): CaptureDetail | undefined;
  /** Variables a studio run of the integration gets (bindings, env resources); re-runs use them. */
  runEnv(integration: string): Promise<Record<string, string>>;
}

/**
 * The Tests panel and the trace inspector's test actions: flow tests listed and run (each on a
 * fresh embedded platform, as `flow-studio test` does, their runs stored beside the others so a
 * failure links to its trace), a stored run written as a test, and a re-run from a step.
 */
export function flowTestsApi(o: FlowTestsApiOptions): FlowTestsApi {
  const testFiles = (integration: string): string[] => {
    const dir = o.workspace.dirOf(integration);
    return readdirSync(dir).filter(isFlowTestFile).sort();
  };
  /** A test's runs go to the run store; the run of the flow under test is marked with the test's name. */
  const store = (integration: string, r: FlowTestResult, mark: (runId: string) => void): string | undefined => {
    for (const e of r.events) o.runs.record(integration, e);
    const run = r.events.filter((e) => e.kind === 'run' && e.flow === r.flow).at(-1);
    if (run) mark(run.runId);
    return run?.runId;
  };

  return {
    async listFlowTests(integration) {
      const dir = o.workspace.dirOf(integration);
      return testFiles(integration).map((file): FlowTestFileView => {
        try {
          const tests = loadTestFile(join(dir, file));
          return { file, tests: tests.map((t) => ({ file, name: t.name, flow: t.flow, description: t.description })), problems: [] };
        } catch (err) {
          if (!(err instanceof LoadError)) throw err;
          const problems = err.problems.map((p) => ({ file: relative(dir, p.location.file), line: p.location.line, col: p.location.col, path: p.path, message: p.message }));
          return { file, tests: [], problems };
        }
      });
    },

    async runFlowTests(selection) {
      const started = performance.now();
      const dir = o.workspace.dirOf(selection.integration);
      const results: FlowTestResultView[] = [];
      const broken: Array<{ file: string; problems: string[] }> = [];
      const events: TraceRecord[] = [];
      for (const file of testFiles(selection.integration)) {
        if (selection.file !== undefined && file !== selection.file) continue;
        let tests: FlowTest[];
        try {
          tests = loadTestFile(join(dir, file));
        } catch (err) {
          if (!(err instanceof LoadError)) throw err;
          broken.push({ file, problems: err.message.split('\n').map((l) => l.replace(`${dir}/`, '')) });
          continue;
        }
        for (const test of tests) {
          if (selection.name !== undefined && test.name !== selection.name) continue;
          const r = await runFlowTest(test, dir);
          events.push(...r.events);
          const runId = store(selection.integration, r, (id) => o.runs.markRun(id, { test: test.name }));
          results.push({ file, name: test.name, flow: test.flow, description: test.description, passed: r.passed, durationMs: r.durationMs, failures: r.failures, runId });
        }
      }
      const coverage = coverageOf(readDefinitions(definitionFilesIn(dir)), o.registry, events);
      return { integration: selection.integration, results, broken, coverage, durationMs: Math.round(performance.now() - started) };
    },

    async saveRunAsTest(input) {
      const found = o.runs.detail(String(input.runId));
      if (!found?.detail) throw new StudioError(`run ${input.runId} is no longer stored with its messages; send it again and save the new run`);
      const capture = found.summary.captureId !== undefined ? o.captureDetail(found.summary.captureId) : undefined;
      return testFromRun({ workspace: o.workspace, summary: found.summary, detail: found.detail, capture, input });
    },

    async rerunFromStep(input): Promise<RerunResult> {
      const found = o.runs.detail(String(input.runId));
      if (!found?.detail) throw new StudioError(`run ${input.runId} is no longer stored with its messages; pick a newer run`);
      const { summary, detail } = found;
      const stored = storedStepAt(detail, Number(input.step));
      if (!stored) throw new StudioError(`run ${input.runId} has no step ${input.step}`);
      if (!stored.step.startsWith(`flows.${summary.flow}.`)) {
        throw new StudioError(`${stored.step} belongs to another flow than ${summary.flow}; open that flow's run to re-run from it`);
      }
      if (input.vars === null || typeof input.vars !== 'object' || Array.isArray(input.vars)) throw new StudioError('vars must be a JSON object, e.g. {"id": "42"}');
      const dir = o.workspace.dirOf(summary.integration);
      if (!existsSync(dir)) throw new StudioError(`integration ${summary.integration} is not in the workspace any more`);
      const http = detail.calls.filter((c) => c.kind === 'http' && typeof c.detail?.url === 'string' && typeof c.detail?.method === 'string');
      const stubs = input.stubOutbound ? { http: http.map((c) => stubOfCall(c.detail as Parameters<typeof stubOfCall>[0], c.status)) } : undefined;
      const test = {
        name: `re-run of ${input.runId}`,
        file: join(dir, 're-run'),
        location: { file: dir, line: 1, col: 1 },
        flow: summary.flow,
        from: stored.step,
        env: await o.runEnv(summary.integration),
        input: { body: input.body ?? null, vars: input.vars },
        stubs,
        expect: {},
      } as FlowTest;
      const r = await runFlowTest(test, dir, { outbound: input.stubOutbound ? 'stubbed' : 'live' });
      const load = r.failures.find((f) => f.what === 'definition' || f.what === 'input' || f.what === 'run');
      if (load) throw new StudioError(load.message);
      const runId = store(summary.integration, r, (id) => o.runs.markRun(id, { forkedFrom: summary.runId, forkedAt: stored.step }));
      const run = r.events.filter((e) => e.kind === 'run' && e.flow === summary.flow).at(-1);
      if (!runId || !run) throw new StudioError('the re-run did not produce a run; is the flow still in the definition?');
      return { runId, forkedFrom: summary.runId, step: stored.step, outcome: run.outcome, error: run.error };
    },
  };
}
