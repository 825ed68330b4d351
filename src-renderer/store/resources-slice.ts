import type { StateCreator } from 'zustand';
import type { ResourceKind } from '../../shared/resource-types.ts';
import type { StudioState } from './studio-store.ts';

export type ResourcesTab = 'files' | 'environment' | 'versions';

export interface ResourcesSlice {
  /** The integration the Resources panel shows; undefined until one is picked (the first, by default). */
  resourcesIntegration: string | undefined;
  resourcesTab: ResourcesTab;
  openResource: { kind: ResourceKind; name: string } | undefined;
  setResourcesIntegration(integration: string | undefined): void;
  setResourcesTab(tab: ResourcesTab): void;
  setOpenResource(resource: { kind: ResourceKind; name: string } | undefined): void;
}

export const createResourcesSlice: StateCreator<StudioState, [], [], ResourcesSlice> = (set) => ({
  resourcesIntegration: undefined,
  resourcesTab: 'files',
  openResource: undefined,
  setResourcesIntegration: (resourcesIntegration) => set({ resourcesIntegration, openResource: undefined }),
  setResourcesTab: (resourcesTab) => set({ resourcesTab }),
  setOpenResource: (openResource) => set({ openResource }),
});
