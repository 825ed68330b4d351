import { mkdirSync } from 'node:fs';
import type { FeedEvent } from '../../shared/feed-events.ts';
import {
  seedResourcesFromDir,
  startPlatformServer,
  type Management,
  type PlatformEvent,
  type PlatformEventListener,
  type DataDirLock,
  type PlatformInspection,
  type SecretKeyProtection,
  type SubscribeOptions,
} from '../platform/index.ts';
import type { FeedSource } from './live-feed.ts';
import type { InProcessTelemetry } from '../runtime/index.ts';

/**
 * The one seam between the studio and the platform server (src-main/platform/). The studio starts
 * it in-process on 127.0.0.1 with a per-launch token and otherwise only knows its URL: runtimes
 * reach it over HTTP like any deployed runtime would.
 */
export interface EmbeddedPlatform {
  url: string;
  token: string;
  /** Queue, topic, KV and lease traffic as feed events, attached only while someone listens. */
  feedSource: FeedSource;
  /**
   * Copies an integration's resource files (`env/**`, `template/**`) into the platform's
   * resource store, as the management API would, before its runtime reads them over /v1.
   */
  mirrorResources(integrationDir: string): void;
  /** Traces and logs of the studio's runtimes, handed over in process rather than POSTed. */
  inProcess?: InProcessTelemetry;
  /** The store and every event, in process, for the Queues & Topics and Storage panels (absent in stand-ins). */
  views?: { inspect: PlatformInspection; subscribe(listener: PlatformEventListener, options?: SubscribeOptions): () => void };
  /** Integrations, tags, cluster secrets and deployments, in process (absent in stand-ins). */
  management?: Management;
  close(): Promise<void>;
}

export interface EmbeddedPlatformOptions {
  dataDir: string;
  /** How the secret store's key is kept; the Electron main process passes safeStorage. Default: a 0600 key file. */
  secretKeyProtection?: SecretKeyProtection;
  /** The studio's lock on the folder (it is the studio's folder too); without it the platform server takes its own. */
  dataDirLock?: DataDirLock;
}

export async function startEmbeddedPlatform(options: EmbeddedPlatformOptions): Promise<EmbeddedPlatform> {
  mkdirSync(options.dataDir, { recursive: true });
  // The platform's own failures go to the Logs panel too, while a window listens.
  const logPushers = new Set<(e: FeedEvent) => void>();
  const onInternalError = (err: Error, where: string): void => {
    console.error(`platform server: ${where}: ${err.stack ?? err.message}`);
    const time = new Date().toISOString();
    for (const push of logPushers) push({ kind: 'log', at: Date.now(), log: { time, level: 'error', msg: `${where}: ${err.message}`, fields: { origin: 'platform' } } });
  };
  const server = await startPlatformServer({ host: '127.0.0.1', port: 0, dataDir: options.dataDir, onInternalError, secretKeyProtection: options.secretKeyProtection, dataDirLock: options.dataDirLock });
  return {
    url: server.url,
    token: server.token ?? '',
    feedSource: (push) => {
      logPushers.add(push);
      const stop = server.events.subscribe((e) => forward(e, push), { telemetry: false });
      return () => {
        logPushers.delete(push);
        stop();
      };
    },
    mirrorResources: (dir) => void seedResourcesFromDir(server.resources, dir),
    inProcess: { ingest: (kind, count, text) => server.ingestTelemetry(kind, count, text) },
    views: { inspect: server.inspect, subscribe: (listener, options) => server.events.subscribe(listener, { telemetry: false, ...options }) },
    management: server.management,
    close: () => server.close(),
  };
}

/**
 * Platform events (`{type: 'queue.publish', at, subject, …}`) become feed events. Trace and log
 * batches a runtime posts are skipped: the studio already taps its runtimes' traces directly.
 */
function forward(event: PlatformEvent, push: (e: FeedEvent) => void): void {
  const { type, at, ...rest } = event as PlatformEvent & Record<string, unknown>;
  const dot = type.indexOf('.');
  const kind = type.slice(0, dot);
  const action = type.slice(dot + 1);
  const text = (k: string): string => (typeof rest[k] === 'string' ? (rest[k] as string) : '');
  const detail = (...omit: string[]): Record<string, unknown> => Object.fromEntries(Object.entries(rest).filter(([k]) => !omit.includes(k)));
  // Message headers stay in process (the studio's traffic views keep them per message), as before.
  if (kind === 'queue' || kind === 'topic') push({ kind, at, subject: text('subject'), action, detail: detail('subject', 'headers') });
  else if (kind === 'kv') push({ kind, at, namespace: text('namespace'), key: text('key'), action, detail: detail('namespace', 'key') });
  else if (kind === 'lease') push({ kind, at, name: text('name'), action, detail: detail('name') });
}
