/**
 * The studio's own history in its data folder: what is kept across restarts, how much of it,
 * and the settings that decide what a restart gives back. Plain data only.
 */

/** What the studio keeps: runs with their steps, captured requests, log lines, sent requests. */
export type HistoryKind = 'runs' | 'captures' | 'logs' | 'requests';

export const HISTORY_KINDS: readonly HistoryKind[] = ['runs', 'captures', 'logs', 'requests'];

/** How much of one kind is kept; the oldest go first once either bound is passed. */
export interface Retention {
  /** Items kept (runs, captures, log lines, sent requests). */
  count: number;
  /** Rough bytes kept on disk, messages and bodies included. */
  bytes: number;
}

export interface HistorySettings {
  retention: Record<HistoryKind, Retention>;
  /** Integrations that were running when the studio stopped start again when it starts. */
  restoreRunning: boolean;
}

/** Defaults, documented in docs/history.md; the settings dialog shows them beside the values. */
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = {
  retention: {
    runs: { count: 100_000, bytes: 512 * 1024 * 1024 },
    captures: { count: 2_000, bytes: 64 * 1024 * 1024 },
    logs: { count: 50_000, bytes: 32 * 1024 * 1024 },
    requests: { count: 500, bytes: 64 * 1024 * 1024 },
  },
  restoreRunning: true,
};

/** Bounds a setting may take: below them history is useless, above them memory is at risk. */
export const RETENTION_LIMITS: Record<HistoryKind, { count: [number, number]; bytes: [number, number] }> = {
  runs: { count: [100, 1_000_000], bytes: [1024 * 1024, 16 * 1024 ** 3] },
  captures: { count: [10, 100_000], bytes: [1024 * 1024, 4 * 1024 ** 3] },
  logs: { count: [100, 1_000_000], bytes: [1024 * 1024, 4 * 1024 ** 3] },
  requests: { count: [10, 10_000], bytes: [1024 * 1024, 1024 ** 3] },
};

/** What each kind holds now. */
export type HistoryUsage = Record<HistoryKind, { count: number; bytes: number }>;

export interface HistoryOverview {
  settings: HistorySettings;
  defaults: HistorySettings;
  usage: HistoryUsage;
  /** The database file, for people who want to look at it. */
  file: string;
}

/** A change to the settings: any part may be left out. */
export interface HistorySettingsPatch {
  retention?: Partial<Record<HistoryKind, Partial<Retention>>>;
  restoreRunning?: boolean;
}
