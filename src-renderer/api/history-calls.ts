import type { HistoryKind, HistoryOverview, HistorySettingsPatch } from '../../shared/history-types.ts';
import type { LogFeedEvent } from '../../shared/feed-events.ts';
import type { LogQuery } from '../../shared/log-types.ts';
import { studio } from './studio-client.ts';

/** The history settings' and the stored log lines' calls. */
export const historyCalls = {
  overview: (): Promise<HistoryOverview> => studio.historyOverview(),
  update: (patch: HistorySettingsPatch): Promise<HistoryOverview> => studio.setHistorySettings(patch),
  clear: (kind: HistoryKind): Promise<HistoryOverview> => studio.clearHistory(kind),
  logs: (query: LogQuery): Promise<LogFeedEvent[]> => studio.queryLogs(query),
};
