import type { FlowTestFileView, FlowTestRunView, FlowTestSelection, RerunInput, RerunResult, SaveRunAsTestInput, SavedTestView } from '../../shared/flow-test-types.ts';
import { studio } from './studio-client.ts';

/** The Tests panel's and the trace inspector's test calls; plain passthroughs. */
export const flowTestCalls = {
  list: (integration: string): Promise<FlowTestFileView[]> => studio.listFlowTests(integration),
  run: (selection: FlowTestSelection): Promise<FlowTestRunView> => studio.runFlowTests(selection),
  saveRun: (input: SaveRunAsTestInput): Promise<SavedTestView> => studio.saveRunAsTest(input),
  rerun: (input: RerunInput): Promise<RerunResult> => studio.rerunFromStep(input),
};
