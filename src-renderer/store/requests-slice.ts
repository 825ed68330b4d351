import type { StateCreator } from 'zustand';
import type { CaptureSummary, ComposerRequest, HistoryEntry, RequestEnvironments, RequestProgress, SavedRequest, SseFrame } from '../../shared/request-types.ts';
import type { StudioState } from './studio-store.ts';

export type RequestsTab = 'routes' | 'saved' | 'history' | 'captures';

/** A request the composer sent that has not finished yet: its live status and frames. */
export interface InFlight {
  id: string;
  status?: number;
  headers?: Array<[string, string]>;
  frames: SseFrame[];
}

/** Frames kept live per request; a long stream keeps its newest. */
const LIVE_FRAMES = 2_000;

export const emptyComposer = (): ComposerRequest => ({
  name: '',
  method: 'GET',
  url: '',
  pathParams: {},
  query: [],
  headers: [],
  body: { kind: 'none' },
  sign: false,
});

export interface RequestsSlice {
  composer: ComposerRequest;
  /** The saved file the composer was loaded from, so Save overwrites it. */
  composerFile: string | undefined;
  requestsTab: RequestsTab;
  inFlight: InFlight | undefined;
  /** What the composer shows below the request: the last answer, or one picked from history. */
  shownEntry: HistoryEntry | undefined;
  history: HistoryEntry[];
  saved: SavedRequest[];
  environments: RequestEnvironments;
  /** The capture opened in the main area instead of the composer. */
  openCapture: number | undefined;
  /** Newest captures pushed by the backend, for the list to show without asking. */
  recentCaptures: CaptureSummary[];
  captureVersion: number;
  setComposer(next: ComposerRequest, file?: string): void;
  patchComposer(patch: Partial<ComposerRequest>): void;
  setRequestsTab(tab: RequestsTab): void;
  startInFlight(id: string): void;
  applyProgress(progress: RequestProgress): void;
  finishInFlight(entry: HistoryEntry | undefined): void;
  showEntry(entry: HistoryEntry | undefined): void;
  setHistory(history: HistoryEntry[]): void;
  setSaved(saved: SavedRequest[]): void;
  setEnvironments(envs: RequestEnvironments): void;
  setOpenCapture(id: number | undefined): void;
  addCaptures(captures: CaptureSummary[]): void;
  /** Puts a request in the composer and shows the Requests panel (from a capture, a run). */
  openInComposer(request: ComposerRequest): void;
}

export const createRequestsSlice: StateCreator<StudioState, [], [], RequestsSlice> = (set) => ({
  composer: emptyComposer(),
  composerFile: undefined,
  requestsTab: 'routes',
  inFlight: undefined,
  shownEntry: undefined,
  history: [],
  saved: [],
  environments: { environments: [] },
  openCapture: undefined,
  recentCaptures: [],
  captureVersion: 0,
  setComposer: (composer, file) => set({ composer, composerFile: file, openCapture: undefined }),
  patchComposer: (patch) => set((s) => ({ composer: { ...s.composer, ...patch } })),
  setRequestsTab: (requestsTab) => set({ requestsTab }),
  startInFlight: (id) => set({ inFlight: { id, frames: [] }, shownEntry: undefined }),
  applyProgress: (p) =>
    set((s) => {
      if (!s.inFlight || s.inFlight.id !== p.id) return s;
      const frames = p.frames.length === 0 ? s.inFlight.frames : s.inFlight.frames.concat(p.frames).slice(-LIVE_FRAMES);
      return { inFlight: { ...s.inFlight, status: p.status ?? s.inFlight.status, headers: p.headers ?? s.inFlight.headers, frames } };
    }),
  finishInFlight: (entry) =>
    set((s) => ({
      inFlight: undefined,
      shownEntry: entry ?? s.shownEntry,
      history: entry ? [entry, ...s.history.filter((h) => h.id !== entry.id)] : s.history,
    })),
  showEntry: (shownEntry) => set({ shownEntry, openCapture: undefined }),
  setHistory: (history) => set({ history }),
  setSaved: (saved) => set({ saved }),
  setEnvironments: (environments) => set({ environments }),
  setOpenCapture: (openCapture) => set({ openCapture }),
  addCaptures: (captures) =>
    set((s) => ({ recentCaptures: [...captures.slice().reverse(), ...s.recentCaptures].slice(0, 200), captureVersion: s.captureVersion + 1 })),
  openInComposer: (composer) => set({ composer, composerFile: undefined, openCapture: undefined, panel: 'requests', shownEntry: undefined }),
});
