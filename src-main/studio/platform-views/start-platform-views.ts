import type { PlatformViewsApi } from '../../../shared/studio-api.ts';
import { type TraceHub } from '../../runtime/index.ts';
import { platformViewsApi } from './platform-views-api.ts';
import { platformViewStubs } from './platform-view-stubs.ts';
import { PlatformViewsState, type PlatformViewsOptions, type PlatformViewsSource } from './platform-views.ts';

export interface PlatformViews {
  readonly api: PlatformViewsApi;
  /** Called for every runtime the run manager loads; returns what stops following it. */
  watchRuntime(integration: string, runtime: { traces: TraceHub }): () => void;
  close(): void;
}

/**
 * The backend of the Queues & Topics and Storage panels. Without a platform to inspect (a test's
 * stand-in), the panels answer empty.
 */
export function startPlatformViews(source: PlatformViewsSource | undefined, options?: PlatformViewsOptions): PlatformViews {
  if (!source) return { api: platformViewStubs(), watchRuntime: () => () => {}, close: () => {} };
  const state = new PlatformViewsState(source.inspect, source.subscribe, options);
  return {
    api: platformViewsApi(state),
    watchRuntime: (integration, runtime) => state.watchRuntime(integration, runtime.traces),
    close: () => state.close(),
  };
}
