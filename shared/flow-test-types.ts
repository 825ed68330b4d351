/**
 * Payloads of the Tests panel and of the trace inspector's "save as test" and "re-run from
 * here": flow tests (`<name>.test.yaml`, docs/testing.md) listed, run and written from runs.
 */
import type { RunProblem } from './studio-api.ts';

export interface FlowTestFailureView {
  what: string;
  message: string;
  /** Expected (`-`) vs actual (`+`) as a line diff of their JSON. */
  diff?: string;
  /** Where the run diverged, e.g. `flows.orders.steps[2] (line totals)`. */
  step?: string;
}

export interface FlowTestView {
  file: string;
  name: string;
  flow: string;
  description?: string;
}

export interface FlowTestFileView {
  /** Relative to the integration folder. */
  file: string;
  tests: FlowTestView[];
  /** Load problems (file:line:col); the file's tests do not run while there are any. */
  problems: RunProblem[];
}

export interface FlowTestResultView extends FlowTestView {
  passed: boolean;
  durationMs: number;
  failures: FlowTestFailureView[];
  /** The test's run of its flow, stored with the other runs: open it in Traces. */
  runId?: string;
}

/** Steps and switch/filter branches the tests went through, for the flow graph. */
export interface CoverageView {
  steps: Array<{ flow: string; path: string; block: string; name?: string; hits: number }>;
  branches: Array<{ flow: string; step: string; label: string; hits: number }>;
}

export interface FlowTestRunView {
  integration: string;
  results: FlowTestResultView[];
  broken: Array<{ file: string; problems: string[] }>;
  coverage: CoverageView;
  durationMs: number;
}

/** Which tests to run: all of the integration, one file's, or one test. */
export interface FlowTestSelection {
  integration: string;
  file?: string;
  name?: string;
}

/** The assertions a saved test keeps, as the user picked them. */
export type SavedAssertion = 'status' | 'headers' | 'body' | 'outcome' | 'vars' | 'calls';

export interface SaveRunAsTestInput {
  runId: string;
  /** The test's name; must not exist in the file yet. */
  name: string;
  /** Relative to the integration folder; default `<flow>.test.yaml`. */
  file?: string;
  keep: SavedAssertion[];
}

export interface SavedTestView {
  integration: string;
  file: string;
  name: string;
  /** The YAML written for the test, as it reads in the file. */
  yaml: string;
}

export interface RerunInput {
  runId: string;
  /** The step index in the run's detail (RunStep.index); a top-level step of the flow. */
  step: number;
  body: unknown;
  vars: Record<string, unknown>;
  /** Answer outbound HTTP from the recorded calls (status and body per call) instead of sending it. */
  stubOutbound: boolean;
}

export interface RerunResult {
  runId: string;
  forkedFrom: string;
  /** The step path the new run started at. */
  step: string;
  outcome: 'completed' | 'dropped' | 'failed';
  error?: string;
}

export interface FlowTestsApi {
  listFlowTests(integration: string): Promise<FlowTestFileView[]>;
  runFlowTests(selection: FlowTestSelection): Promise<FlowTestRunView>;
  /** Writes a test made from a stored run: input as a fixture, outbound calls as stubs, the observed result as the expectation. */
  saveRunAsTest(input: SaveRunAsTestInput): Promise<SavedTestView>;
  /** Runs the rest of the flow from a step with an edited message, against the current definition; the new run links back. */
  rerunFromStep(input: RerunInput): Promise<RerunResult>;
}
