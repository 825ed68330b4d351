import type { StudioApi, StudioEventName, StudioEvents, StudioListener } from '../../../shared/studio-api.ts';
import { LiveFeed } from '../live-feed.ts';
import { inspectionStubs } from './inspection-stubs.ts';
import { platformViewStubs } from '../platform-views/platform-view-stubs.ts';
import { resourcesStubs } from '../resources/resources-stubs.ts';
import { debuggerStubs } from '../debugger/debugger-stubs.ts';
import type { StudioBackend } from '../studio-backend.ts';

/** A backend with canned answers, for testing transports without workspaces or runtimes. */
export function stubBackend(overrides: Partial<StudioApi> = {}): StudioBackend & { emit<E extends StudioEventName>(e: E, p: StudioEvents[E]): void } {
  const feed = new LiveFeed({ flushMs: 10 });
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const api: StudioApi = {
    workspaceInfo: async () => ({ root: '/tmp/ws', dataDir: '/tmp/data', platformUrl: 'http://127.0.0.1:1', shell: 'web', launchId: 'stub', definitionsAtRoot: [] }),
    listIntegrations: async () => [{ id: 'orders-api', name: 'orders-api', definitionFiles: ['orders.yaml'], testFiles: [], resourceFiles: [] }],
    readFile: async () => 'flows: {}',
    writeFile: async () => {},
    runStates: async () => [],
    startIntegration: async (id) => ({ integration: id, status: 'running', routes: [], problems: [], generation: 1, since: Date.now() }),
    stopIntegration: async (id) => ({ integration: id, status: 'stopped', routes: [], problems: [], generation: 1, since: Date.now() }),
    usePort: async (id) => ({ integration: id, status: 'running', routes: [], problems: [], generation: 2, since: Date.now() }),
    restartIntegration: async (id) => ({ integration: id, status: 'running', routes: [], problems: [], generation: 2, since: Date.now() }),
    validateDefinition: async () => [],
    designReference: async () => ({ schema: {}, components: [], flowSettings: {}, envSettings: {}, celFunctions: [] }),
    evaluateCel: async () => ({ ok: true, value: null, type: 'null' }),
    createIntegration: async (id) => ({ id, name: id, definitionFiles: ['flows.yaml'], testFiles: [], resourceFiles: [] }),
    createDefinitionFile: async (id, file) => ({ id, name: id, definitionFiles: [file], testFiles: [], resourceFiles: [] }),
    renameDefinitionFile: async (id, _from, to) => ({ id, name: id, definitionFiles: [to], testFiles: [], resourceFiles: [] }),
    deleteDefinitionFile: async (id) => ({ id, name: id, definitionFiles: [], testFiles: [], resourceFiles: [] }),
    ...inspectionStubs(),
    ...platformViewStubs(),
    ...resourcesStubs(),
    ...debuggerStubs(),
    listFlowTests: async () => [],
    runFlowTests: async (sel) => ({ integration: sel.integration, results: [], broken: [], coverage: { steps: [], branches: [] }, durationMs: 0 }),
    saveRunAsTest: async (input) => ({ integration: 'orders-api', file: input.file ?? 'orders.test.yaml', name: input.name, yaml: '' }),
    rerunFromStep: async (input) => ({ runId: 'r-rerun', forkedFrom: input.runId, step: 'flows.price-order.steps[1]', outcome: 'completed' }),
    ...overrides,
  };
  return {
    api,
    launchId: 'stub',
    feed,
    runStates: () => [],
    on<E extends StudioEventName>(event: E, listener: StudioListener<E>) {
      if (event === 'feed') return feed.subscribe(listener as StudioListener<'feed'>);
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    async close() {
      feed.close();
    },
  };
}
