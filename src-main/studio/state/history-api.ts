import { HISTORY_KINDS, DEFAULT_HISTORY_SETTINGS, type HistoryKind, type HistoryOverview } from '../../../shared/history-types.ts';
import type { HistoryApi } from '../../../shared/studio-api.ts';
import type { FireAndInspect } from '../requests/fire-and-inspect.ts';
import { StudioError } from '../studio-error.ts';
import type { HistorySettingsStore } from './history-settings.ts';
import { STUDIO_DB_FILE } from './studio-db.ts';
import { join } from 'node:path';

/** The StudioApi methods of the history settings: what is kept, how much, and clearing it kind by kind. */
export function historyApi(settings: HistorySettingsStore, inspection: FireAndInspect, dataDir: string): HistoryApi {
  const overview = (): HistoryOverview => ({
    settings: settings.get(),
    defaults: DEFAULT_HISTORY_SETTINGS,
    usage: {
      runs: { count: inspection.runs.size, bytes: inspection.runs.storedBytes },
      captures: { count: inspection.captures.size, bytes: inspection.captures.storedBytes },
      logs: inspection.logs.usage,
      requests: inspection.history.usage,
    },
    file: join(dataDir, STUDIO_DB_FILE),
  });
  return {
    async historyOverview() {
      return overview();
    },
    async setHistorySettings(patch) {
      settings.update(patch);
      return overview();
    },
    async clearHistory(kind) {
      if (!(HISTORY_KINDS as readonly unknown[]).includes(kind)) throw new StudioError(`"${String(kind)}" is not a kind of history; the kinds are ${HISTORY_KINDS.join(', ')}`);
      const clear: Record<HistoryKind, () => void> = {
        runs: () => inspection.runs.clear(),
        captures: () => inspection.captures.clear(),
        logs: () => inspection.logs.clear(),
        requests: () => inspection.history.clear(),
      };
      clear[kind]();
      return overview();
    },
    async queryLogs(query) {
      return inspection.logs.query(query);
    },
  };
}
