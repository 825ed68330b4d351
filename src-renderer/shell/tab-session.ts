import type { FileRef } from '../store/flows-slice.ts';
import { panels, type PanelId } from '../store/panels.ts';

/**
 * What this tab had on screen and unsaved, kept in sessionStorage (this tab only) when the page is
 * left, so the Reload the restart banner asks for (or F5) gives back the panel, the open file and
 * every unsaved buffer instead of dropping what was typed since the last save.
 */
interface TabSession {
  panel?: PanelId;
  openFile?: FileRef;
  /** Unsaved text by file key (`<integration>/<file>`). */
  drafts: Record<string, Draft>;
}

/**
 * An unsaved buffer and the file text it was typed over, so a reload can tell that the file
 * changed on disk meanwhile (a `git checkout` while the studio restarted) instead of laying the
 * older edits over the change as if nothing happened.
 */
export interface Draft {
  text: string;
  /** The file as last read or saved; absent in sessions kept before it was recorded. */
  base?: string;
}

const KEY = 'flow-studio.tab-session';

function read(): TabSession {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<TabSession>) : {};
    const panel = panels.find((p) => p.id === parsed.panel)?.id;
    return { panel, openFile: parsed.openFile, drafts: draftsOf(parsed.drafts) };
  } catch {
    return { drafts: {} };
  }
}

/**
 * Read once at load: drafts are handed out as their files are opened, the rest kept for the next
 * leave. The panel and open file come back on a reload only: opening the studio's URL again in
 * this tab starts where a new tab does, while what was typed is never dropped.
 */
const restored = read();
if (!isReload()) {
  restored.panel = undefined;
  restored.openFile = undefined;
}

function draftsOf(raw: unknown): Record<string, Draft> {
  if (!raw || typeof raw !== 'object') return {};
  const drafts: Record<string, Draft> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    // A tab kept by an older studio holds the text alone.
    if (typeof value === 'string') drafts[key] = { text: value };
    else if (value && typeof value === 'object' && typeof (value as Draft).text === 'string') {
      const { text, base } = value as Draft;
      drafts[key] = typeof base === 'string' ? { text, base } : { text };
    }
  }
  return drafts;
}

function isReload(): boolean {
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return entry?.type === 'reload';
}

/** The panel this tab showed before the reload. */
export function rememberedPanel(): PanelId | undefined {
  return restored.panel;
}

/** The file this tab had open before the reload, until the editor shows one. */
export function rememberedOpenFile(): FileRef | undefined {
  return restored.openFile;
}

export function forgetRememberedOpenFile(): void {
  restored.openFile = undefined;
}

/** The unsaved text a file had before the reload, handed out once. */
export function takeDraft(key: string): Draft | undefined {
  const draft = restored.drafts[key];
  delete restored.drafts[key];
  return draft;
}

/** Keys of the files with an unsaved draft not yet opened again. */
export function pendingDraftKeys(): string[] {
  return Object.keys(restored.drafts);
}

// The editor's unsaved buffers; set once the editor (and Monaco) has loaded.
let liveDrafts: () => Record<string, Draft> = () => ({});

export function setDraftSource(source: () => Record<string, Draft>): void {
  liveDrafts = source;
}

/**
 * Writes the tab's session when the page is left: the panel, the open file, and the unsaved buffers of this
 * page over the drafts of the previous one not opened since.
 */
export function keepTabSessionOnLeave(now: () => { panel: PanelId; openFile: FileRef | undefined }): void {
  addEventListener('pagehide', () => {
    const { panel, openFile } = now();
    const session: TabSession = { panel, openFile: openFile ?? restored.openFile, drafts: { ...restored.drafts, ...liveDrafts() } };
    try {
      sessionStorage.setItem(KEY, JSON.stringify(session));
    } catch {
      // Storage full or refused: the page is leaving, there is nobody left to tell.
    }
  });
}
