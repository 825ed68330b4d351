import type { FeedEvent } from '../../../shared/feed-events.ts';
import type { CaptureSummary, RequestProgress } from '../../../shared/request-types.ts';
import type { RouteInfo } from '../../../shared/studio-api.ts';
import { readDefinitions, type Runtime } from '../../runtime/index.ts';
import { RunRecorder } from '../traces/run-recorder.ts';
import { RunStore } from '../traces/run-store.ts';
import { tracesApi, type TracesApi } from '../traces/traces-api.ts';
import type { Workspace } from '../workspace.ts';
import { CaptureStore } from './capture-store.ts';
import { RequestHistory } from './request-history.ts';
import { RequestSender } from './request-sender.ts';
import { requestsApi, type RequestsApi } from './requests-api.ts';
import { SavedRequests } from './saved-requests.ts';
import { signForRoute, verifyStepOf } from './notes-signing.ts';
import { observeTraffic } from './traffic-observer.ts';

export interface FireAndInspectOptions {
  workspace: Workspace;
  dataDir: string;
  routesOf(integration: string): RouteInfo[] | undefined;
  pushFeed(event: FeedEvent): void;
  emitProgress(progress: RequestProgress): void;
  emitCaptures(captures: CaptureSummary[]): void;
  /** A cluster secret's value, for the signing helper. */
  secretValueOf(name: string): Promise<string | undefined>;
}

/** The Requests and Traces panels' backend: stores, recorder, sender, and their API methods. */
export interface FireAndInspect {
  readonly api: RequestsApi & TracesApi;
  readonly runs: RunStore;
  readonly captures: CaptureStore;
  /** Called by the run manager for every runtime it loads; returns what stops watching it. */
  watchRuntime(integration: string, runtime: Runtime): () => void;
  /** A studio window listens (or the last one left): step snapshots on or off. */
  setListening(listening: boolean): void;
  close(): Promise<void>;
}

const CAPTURE_EVENT_MS = 100;

export function startFireAndInspect(options: FireAndInspectOptions): FireAndInspect {
  const runs = new RunStore();
  const recorder = new RunRecorder(runs);
  const captures = new CaptureStore(runs);
  const history = new RequestHistory(options.dataDir);
  const sender = new RequestSender();
  const current = new Map<string, Runtime>();
  // A failed signature check shows what the body should have been signed with, for comparison.
  captures.setExpectedSignature((c) => {
    if (c.record.flow === undefined) return undefined;
    const step = verifyStepOf(readDefinitions(options.workspace.definitionPaths(c.integration)), c.record.flow);
    const signed = step ? signForRoute(current.get(c.integration), step, c.record.requestBody ?? new Uint8Array()) : undefined;
    return signed?.ok ? { header: signed.header, value: signed.value } : undefined;
  });

  // New captures go to the windows in small batches, so a burst of webhooks is one event.
  let batch: CaptureSummary[] = [];
  let timer: NodeJS.Timeout | undefined;
  const stopCaptureEvents = captures.onCapture((c) => {
    batch.push(c);
    timer ??= setTimeout(() => {
      timer = undefined;
      const out = batch;
      batch = [];
      options.emitCaptures(out);
    }, CAPTURE_EVENT_MS);
  });

  const api = {
    ...requestsApi({
      captures,
      history,
      saved: new SavedRequests(options.workspace.root),
      sender,
      routesOf: options.routesOf,
      runtimeOf: (id) => current.get(id),
      definitionTexts: (id) => readDefinitions(options.workspace.definitionPaths(id)),
      emitProgress: options.emitProgress,
      secretValueOf: (name) => options.secretValueOf(name),
    }),
    ...tracesApi(runs),
  };

  return {
    api,
    runs,
    captures,
    watchRuntime(integration, runtime) {
      current.set(integration, runtime);
      const stopRecording = recorder.attach(integration, runtime.traces);
      const stopObserving = observeTraffic(integration, runtime, captures, options.pushFeed);
      // The Traces list says how many runs went untraced under load, to whichever window asks.
      const admission = runtime.traces.admission;
      const stopCounting = runs.countUntraced(integration, () => admission.shed);
      return () => {
        stopRecording();
        stopObserving();
        stopCounting();
        if (current.get(integration) === runtime) current.delete(integration);
      };
    },
    setListening: (listening) => recorder.setSnapshots(listening),
    async close() {
      stopCaptureEvents();
      if (timer) clearTimeout(timer);
      history.flush();
      await sender.close();
    },
  };
}
