import type { FeedEvent } from '../../../shared/feed-events.ts';
import type { CaptureSummary, RequestProgress } from '../../../shared/request-types.ts';
import type { RouteInfo } from '../../../shared/studio-api.ts';
import type { DefinitionVersion, RunSummary } from '../../../shared/trace-types.ts';
import { rejectionDetail } from './rejection-detail.ts';
import { readDefinitions, type Runtime } from '../../runtime/index.ts';
import { LogHistory } from '../logs/log-history.ts';
import { RunMetrics } from '../metrics/run-metrics.ts';
import type { MetricsQuery } from '../../../shared/metrics-types.ts';
import { RunEndLines } from '../logs/run-log-lines.ts';
import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { HistorySettingsStore } from '../state/history-settings.ts';
import { closeHistoryThread } from '../state/history-thread.ts';
import type { StudioDb } from '../state/studio-db.ts';
import type { DefinitionFilesOf } from '../traces/definition-change.ts';
import { RunHistory } from '../traces/run-history.ts';
import { RunRecorder } from '../traces/run-recorder.ts';
import { RunStore } from '../traces/run-store.ts';
import { tracesApi, type TracesApi } from '../traces/traces-api.ts';
import type { Workspace } from '../workspace.ts';
import { CaptureHistory } from './capture-history.ts';
import { CaptureStore } from './capture-store.ts';
import { RequestHistory } from './request-history.ts';
import { SealedRequestOriginals } from './sealed-request-originals.ts';
import { diskFullMessage, isDiskFull, type SecretKeyProtection } from '../../platform/index.ts';
import { RequestSender } from './request-sender.ts';
import { requestsApi, type RequestsApi } from './requests-api.ts';
import { SavedRequests } from './saved-requests.ts';
import { signForRoute, verifyStepOf } from './notes-signing.ts';
import { observeTraffic } from './traffic-observer.ts';

export interface FireAndInspectOptions {
  workspace: Workspace;
  dataDir: string;
  /** studio.db, where runs, captures, log lines and sent requests outlive the process. */
  db: StudioDb;
  /** Their retention; a change applies at once. */
  settings: HistorySettingsStore;
  /** The files a definition version served from, for Compare. */
  definitionFiles?: DefinitionFilesOf;
  /** A write to studio.db failed (a full disk): said once, never thrown at the work that made it. */
  warn?(message: string): void;
  routesOf(integration: string): RouteInfo[] | undefined;
  pushFeed(event: FeedEvent): void;
  emitProgress(progress: RequestProgress): void;
  emitCaptures(captures: CaptureSummary[]): void;
  /** A cluster secret's value, for the signing helper. */
  secretValueOf(name: string): Promise<string | undefined>;
  /** The secret store's key: sent requests the history shows masked are kept sealed with it, for a re-send. */
  secretKeyProtection?: SecretKeyProtection;
  /** Times the minute in which a flow's failed runs get a Logs line each (tests move it). */
  clock?: Clock;
}

/** The Requests and Traces panels' backend: stores, recorder, sender, and their API methods. */
export interface FireAndInspect {
  readonly api: RequestsApi & TracesApi;
  readonly runs: RunStore;
  readonly captures: CaptureStore;
  readonly history: RequestHistory;
  readonly logs: LogHistory;
  /** Called by the run manager for every runtime it loads; returns what stops watching it. */
  watchRuntime(integration: string, runtime: Runtime, version?: DefinitionVersion): () => void;
  /** A studio window listens (or the last one left): step snapshots on or off. */
  setListening(listening: boolean): void;
  close(): Promise<void>;
}

const CAPTURE_EVENT_MS = 100;

/** The definition texts that served a run: its version's, when kept, else the working copy's. */
function definitionTextsOf(s: RunSummary, options: FireAndInspectOptions): Array<{ text: string }> {
  const kept = s.version ? options.definitionFiles?.(s.integration, s.version.digest) : undefined;
  if (kept) return kept;
  try {
    return readDefinitions(options.workspace.definitionPaths(s.integration));
  } catch {
    return [];
  }
}

export function startFireAndInspect(options: FireAndInspectOptions): FireAndInspect {
  let warned = false;
  const onWriteError = (err: unknown): void => {
    if (warned) return;
    warned = true;
    // A full disk says what to do about it; anything else is said as it came.
    const why = isDiskFull(err) ? diskFullMessage(options.dataDir, err) : `${options.dataDir} (${err instanceof Error ? err.message : String(err)})`;
    options.warn?.(`the studio's history could not be written${isDiskFull(err) ? ': ' : ' to '}${why}; runs and requests go on, unsaved`);
  };
  const retention = options.settings.get().retention;
  const runs = new RunStore({ maxRuns: retention.runs.count, maxBytes: retention.runs.bytes });
  // The charts count every run stored, those read back from disk first.
  const metrics = new RunMetrics();
  runs.onRun((now, before) => {
    if (before) metrics.remove(before);
    metrics.add(now);
  });
  runs.onCleared(() => metrics.clear());
  const runHistory = new RunHistory(options.db, onWriteError);
  runs.restore(runHistory.load(retention.runs.count));
  runs.setRetention(retention.runs);
  runs.keepWith(runHistory);
  const recorder = new RunRecorder(runs);
  const captures = new CaptureStore(runs, { maxCaptures: retention.captures.count, maxBytes: retention.captures.bytes });
  const captureHistory = new CaptureHistory(options.db, onWriteError);
  captures.restore(captureHistory.load(retention.captures.count));
  captures.keepWith(captureHistory);
  captures.setRetention(retention.captures);
  const history = new RequestHistory(options.db, retention.requests, options.dataDir, onWriteError);
  const logs = new LogHistory(options.db, retention.logs, onWriteError);
  // A failed or rejected run writes a line to Logs, kept with the runtimes' own lines; under a
  // flood, one per distinct failure of a flow a minute and a summary of the rest.
  const runEndLines = new RunEndLines({
    clock: options.clock ?? systemClock,
    write: (line) => {
      logs.add(line);
      options.pushFeed(line);
    },
  });
  const stopLoggingEnds = runs.onBadEnd((summary, failure) => runEndLines.report(summary, failure));
  const stopFollowingSettings = options.settings.onChange((s) => {
    runs.setRetention(s.retention.runs);
    captures.setRetention(s.retention.captures);
    history.setRetention(s.retention.requests);
    logs.setRetention(s.retention.logs);
  });
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
      originals: options.secretKeyProtection ? new SealedRequestOriginals(options.dataDir, options.secretKeyProtection, onWriteError) : undefined,
      redactFor: (integration) => {
        // As a capture at that route is masked; a request to a URL of no route, with every running integration's.
        const redactors = integration !== undefined ? [current.get(integration)?.definition.redactor] : [...current.values()].map((r) => r.definition.redactor);
        return (text) => redactors.reduce((t, r) => (r ? r.redact(t) : t), text);
      },
      definitionTexts: (id) => readDefinitions(options.workspace.definitionPaths(id)),
      emitProgress: options.emitProgress,
      secretValueOf: (name) => options.secretValueOf(name),
    }),
    ...tracesApi(runs, options.definitionFiles, (summary) => rejectionDetail(summary, captures, (s) => definitionTextsOf(s, options))),
    async runMetrics(query: MetricsQuery) {
      return metrics.query(query);
    },
    async runSparklines() {
      return metrics.sparklines();
    },
  };

  return {
    api,
    runs,
    captures,
    history,
    logs,
    watchRuntime(integration, runtime, version) {
      current.set(integration, runtime);
      const stopRecording = recorder.attach(integration, runtime.traces, version);
      const stopObserving = observeTraffic(integration, runtime, captures, options.pushFeed);
      // The Traces list says how many runs went untraced under load, to whichever window asks.
      const admission = runtime.traces.admission;
      const stopCounting = runs.countUntraced(integration, () => admission.shed);
      return () => {
        stopRecording();
        stopObserving();
        stopCounting();
        // The integration stopped (or reloads): what its flows' minutes held back is said now.
        runEndLines.flush(integration);
        if (current.get(integration) === runtime) current.delete(integration);
      };
    },
    setListening: (listening) => recorder.setSnapshots(listening),
    async close() {
      stopCaptureEvents();
      stopFollowingSettings();
      stopLoggingEnds();
      runEndLines.flush();
      if (timer) clearTimeout(timer);
      await sender.close();
      history.flush();
      runHistory.flush();
      captureHistory.flush();
      logs.flush();
      // Everything is in the file now: the thread's connection closes before the studio's does.
      closeHistoryThread(options.db);
    },
  };
}
