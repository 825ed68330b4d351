import type { RequestsApi, TracesApi } from '../../../shared/studio-api.ts';

const none = async (): Promise<never> => {
  throw new Error('not available in the stub backend');
};

/** Canned answers for the Requests and Traces methods, for transport tests. */
export function inspectionStubs(): RequestsApi & TracesApi {
  return {
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
    queryRuns: async (q) => ({ total: 0, stored: 0, offset: q.offset, rows: [], flows: [], tookMs: 0, notTraced: 0 }),
    runDetail: async () => null,
    traceValue: async () => null,
    compareRuns: none,
    clearRuns: async () => {},
  };
}
