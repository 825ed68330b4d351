import { DEFAULT_HISTORY_SETTINGS, type HistoryOverview } from '../../../shared/history-types.ts';
import type { HistoryApi, RequestsApi, TracesApi } from '../../../shared/studio-api.ts';

const none = async (): Promise<never> => {
  throw new Error('not available in the stub backend');
};

const emptyHistory = (): HistoryOverview => {
  const none = { count: 0, bytes: 0 };
  return { settings: DEFAULT_HISTORY_SETTINGS, defaults: DEFAULT_HISTORY_SETTINGS, usage: { runs: none, captures: none, logs: none, requests: none }, file: '/tmp/data/studio.db' };
};

/** Canned answers for the Requests, Traces and history methods, for transport tests. */
export function inspectionStubs(): RequestsApi & TracesApi & HistoryApi {
  return {
    historyOverview: async () => emptyHistory(),
    setHistorySettings: async () => emptyHistory(),
    clearHistory: async () => emptyHistory(),
    queryLogs: async () => [],
    sendRequest: none,
    stopRequest: async () => {},
    requestHistory: async () => [],
    clearRequestHistory: async () => {},
    savedRequests: async () => [],
    saveRequest: none,
    deleteSavedRequest: async () => {},
    requestEnvironments: async () => ({ environments: [] }),
    saveRequestEnvironments: async (e) => e,
    signRequestBody: async () => ({ ok: false, reason: 'stub' }),
    signBodyHmac: async () => ({ ok: false, reason: 'stub' }),
    mintJwt: async () => ({ ok: false, reason: 'stub' }),
    revealHandshakeToken: async () => ({ ok: false, reason: 'stub' }),
    listCaptures: async () => ({ total: 0, rows: [] }),
    captureDetail: async () => null,
    captureAsRequest: none,
    replayCapture: none,
    clearCaptures: async () => {},
    queryRuns: async (q) => ({ total: 0, stored: 0, offset: q.offset, rows: [], flows: [], versions: [], tookMs: 0, notTraced: 0 }),
    runDetail: async () => null,
    traceValue: async () => null,
    compareRuns: none,
    clearRuns: async () => {},
    runMetrics: async () => ({ from: 0, to: 0, stepMs: 1_000, points: [], total: { runs: 0, perSecond: 0, errorRate: 0 }, rows: [], precision: '' }),
    runSparklines: async () => ({ stepMs: 10_000, to: 0, byIntegration: {} }),
  };
}
