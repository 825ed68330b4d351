import type { StateCreator } from 'zustand';
import type { PanelId } from './panels.ts';
import type { StudioState } from './studio-store.ts';

export interface NavigationSlice {
  panel: PanelId;
  paletteOpen: boolean;
  /** A message for the person after a call failed; cleared by the next success or dismissal. */
  notice: string | undefined;
  showPanel(panel: PanelId): void;
  setPaletteOpen(open: boolean): void;
  setNotice(notice: string | undefined): void;
}

export const createNavigationSlice: StateCreator<StudioState, [], [], NavigationSlice> = (set) => ({
  panel: 'flows',
  paletteOpen: false,
  notice: undefined,
  showPanel: (panel) => set({ panel }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  setNotice: (notice) => set({ notice }),
});
