import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core/logger.ts';
import type { TraceHub, TraceSink } from '../core/trace.ts';
import type { OtelConfig } from './otel-config.ts';
import { OtelPipeline, type ExportRecord } from './otel-pipeline.ts';
import { traceSampler } from './trace-sampling.ts';
import { packRecords, unpackRecords } from './otel-wire.ts';
import { workerStart } from '../../../shared/ts-worker-boot.ts';

export interface OtelExport {
  /** Exports what is queued and stops; the runtime calls it when it stops. */
  shutdown(): Promise<void>;
  /** Records handed on for export so far, and records dropped because export fell behind. */
  readonly stats: { exported: number; dropped: number; thread: 'worker' | 'main' };
}

/** Records wait at most this long, or until this many are waiting, before they are handed on. */
const HAND_ON_MS = 50;
const HAND_ON_COUNT = 512;
/** Beyond this many waiting (the worker is not keeping up) new records are dropped and counted. */
const MAX_WAITING = 50_000;

/**
 * Sends the runtime's runs, steps and calls as OTLP spans. On the request path a record is only
 * sampled and queued; every 50 ms the queue moves, packed flat (otel-wire.ts), to a worker thread
 * that builds the spans and runs the SDK's batch processor and exporter (or, on one core or where
 * no worker can start, to the same pipeline on this thread). The sink takes records unmasked, so
 * the hub never deep-copies a record (and its snapshots) for it: at hand-on, the strings a span
 * carries are masked and everything else (snapshots above all) is left behind.
 */
export async function attachOtelExport(hub: TraceHub, config: OtelConfig, opts: { log: Logger; integration?: string; deployment?: string }): Promise<OtelExport> {
  for (const w of config.warnings) opts.log.warn(w);
  const sampled = traceSampler(config);
  // A worker pays only with a core of its own: on one core (or pinned to one) the hand-over
  // would cost more than the work it moves.
  const target =
    availableParallelism() < 2
      ? undefined
      : await startWorker(config, opts).catch((err: unknown) => {
          opts.log.warn('OpenTelemetry export runs on the request thread: its worker did not start', { reason: String(err) });
          return undefined;
        });
  const inThread = target ? undefined : new OtelPipeline(config, { integration: opts.integration, deployment: opts.deployment });
  const stats = { exported: 0, dropped: 0, thread: target ? ('worker' as const) : ('main' as const) };
  let waiting: ExportRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const handOn = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const redactor = hub.redactor && hub.redactor.size > 0 ? hub.redactor : undefined;
    // Packed either way: one place decides what a span may show and masks it.
    const rows = packRecords(waiting, redactor && ((s) => redactor.redact(s)));
    if (target) target.postMessage({ rows });
    else inThread!.take(unpackRecords(rows));
    waiting = [];
  };
  const queue = (record: ExportRecord): void => {
    if (waiting.length >= MAX_WAITING) {
      stats.dropped++;
      return;
    }
    stats.exported++;
    waiting.push(record);
    if (waiting.length >= HAND_ON_COUNT) handOn();
    else timer ??= setTimeout(handOn, HAND_ON_MS).unref();
  };
  const sink: TraceSink = {
    unredacted: true,
    emit(event) {
      if (event.traceId && sampled(event.traceId, event.sampled)) queue({ event });
    },
    span(call) {
      if (call.traceId && sampled(call.traceId, call.sampled)) queue({ call });
    },
  };
  const detach = hub.add(sink);
  return {
    stats,
    async shutdown() {
      detach();
      handOn();
      if (inThread) return inThread.shutdown();
      const closed = new Promise<void>((resolve) => target!.on('message', (m: { closed?: boolean }) => m.closed && resolve()));
      target!.postMessage({ close: true });
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000).unref())]);
      await target!.terminate();
    },
  };
}

function startWorker(config: OtelConfig, origin: { integration?: string; deployment?: string }): Promise<Worker> {
  const source = new URL('./otel-worker.ts', import.meta.url);
  const { target, options } = workerStart(
    source,
    new URL('../../../dist-electron/otel-worker.js', import.meta.url),
    { sourceExists: existsSync(fileURLToPath(source)), tsxPackage: () => createRequire(import.meta.url).resolve('tsx/package.json') },
    { config, integration: origin.integration, deployment: origin.deployment },
  );
  const worker = new Worker(target, options);
  worker.unref();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('the export worker did not start within 10 s')), 10_000);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      void worker.terminate();
      reject(err);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the export worker exited with ${code}`)));
    worker.once('message', (m: { ready?: boolean }) => {
      if (!m.ready) return;
      clearTimeout(timer);
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
      // A worker that dies later loses only spans, never the runtime.
      worker.on('error', () => {});
      resolve(worker);
    });
  });
}
