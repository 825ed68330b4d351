import { create } from 'zustand';
import { createFeedSlice, type FeedSlice } from './feed-slice.ts';
import { createNavigationSlice, type NavigationSlice } from './navigation-slice.ts';
import { createRunSlice, type RunSlice } from './run-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

export type StudioState = NavigationSlice & WorkspaceSlice & RunSlice & FeedSlice;

/** The one bound store of the renderer, built from slices; components select one field each. */
export const useStudio = create<StudioState>()((...a) => ({
  ...createNavigationSlice(...a),
  ...createWorkspaceSlice(...a),
  ...createRunSlice(...a),
  ...createFeedSlice(...a),
}));
