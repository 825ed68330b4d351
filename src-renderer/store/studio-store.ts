import { create } from 'zustand';
import { createDebuggerSlice, type DebuggerSlice } from './debugger-slice.ts';
import { createFeedSlice, type FeedSlice } from './feed-slice.ts';
import { createFlowsSlice, type FlowsSlice } from './flows-slice.ts';
import { createNavigationSlice, type NavigationSlice } from './navigation-slice.ts';
import { createPlatformViewsSlice, type PlatformViewsSlice } from './platform-views-slice.ts';
import { createRequestsSlice, type RequestsSlice } from './requests-slice.ts';
import { createResourcesSlice, type ResourcesSlice } from './resources-slice.ts';
import { createRunSlice, type RunSlice } from './run-slice.ts';
import { createTestsSlice, type TestsSlice } from './tests-slice.ts';
import { createTracesSlice, type TracesSlice } from './traces-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

export type StudioState = NavigationSlice & WorkspaceSlice & RunSlice & FeedSlice & FlowsSlice & RequestsSlice & TracesSlice & PlatformViewsSlice & ResourcesSlice & TestsSlice & DebuggerSlice;

/** The one bound store of the renderer, built from slices; components select one field each. */
export const useStudio = create<StudioState>()((...a) => ({
  ...createNavigationSlice(...a),
  ...createWorkspaceSlice(...a),
  ...createRunSlice(...a),
  ...createFeedSlice(...a),
  ...createFlowsSlice(...a),
  ...createRequestsSlice(...a),
  ...createTracesSlice(...a),
  ...createPlatformViewsSlice(...a),
  ...createResourcesSlice(...a),
  ...createTestsSlice(...a),
  ...createDebuggerSlice(...a),
}));
