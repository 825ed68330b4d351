import type { StateCreator } from 'zustand';
import type { IntegrationSummary, WorkspaceInfo } from '../../shared/studio-api.ts';
import type { StudioState } from './studio-store.ts';

export interface WorkspaceSlice {
  workspace: WorkspaceInfo | undefined;
  integrations: IntegrationSummary[];
  /** False until the first list arrived, so an empty workspace is not shown as loading. */
  integrationsLoaded: boolean;
  setWorkspace(info: WorkspaceInfo): void;
  setIntegrations(list: IntegrationSummary[]): void;
}

export const createWorkspaceSlice: StateCreator<StudioState, [], [], WorkspaceSlice> = (set) => ({
  workspace: undefined,
  integrations: [],
  integrationsLoaded: false,
  setWorkspace: (workspace) => set({ workspace }),
  setIntegrations: (integrations) => set({ integrations, integrationsLoaded: true }),
});
