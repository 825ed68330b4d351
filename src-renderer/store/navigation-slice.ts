import type { StateCreator } from 'zustand';
import type { SessionEnd } from '../../shared/studio-api.ts';
import type { PanelId } from './panels.ts';
import type { StudioState } from './studio-store.ts';

export interface NavigationSlice {
  panel: PanelId;
  paletteOpen: boolean;
  /** A message for the person after a call failed; cleared by the next success or dismissal. */
  notice: string | undefined;
  /** This window can no longer follow the studio: it restarted, or refused the session. */
  sessionEnded: SessionEnd | undefined;
  /** The History dialog (retention, clearing, restore) is open. */
  historyOpen: boolean;
  showPanel(panel: PanelId): void;
  setHistoryOpen(open: boolean): void;
  setSessionEnded(why: SessionEnd): void;
  setPaletteOpen(open: boolean): void;
  setNotice(notice: string | undefined): void;
}

export const createNavigationSlice: StateCreator<StudioState, [], [], NavigationSlice> = (set) => ({
  panel: 'flows',
  paletteOpen: false,
  notice: undefined,
  sessionEnded: undefined,
  historyOpen: false,
  showPanel: (panel) => set({ panel }),
  setHistoryOpen: (historyOpen) => set({ historyOpen }),
  setSessionEnded: (sessionEnded) => set({ sessionEnded }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  setNotice: (notice) => set({ notice }),
});
