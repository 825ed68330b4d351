import { parentPort, workerData } from 'node:worker_threads';
import { OtelPipeline, type ExportRecord } from './otel-pipeline.ts';
import type { OtelConfig } from './otel-config.ts';

/** The export pipeline on its own thread: batches of records in, `closed` out once flushed. */
const { config, integration, deployment } = workerData as { config: OtelConfig; integration?: string; deployment?: string };
const pipeline = new OtelPipeline(config, { integration, deployment });
parentPort!.on('message', (message: { records?: ExportRecord[]; close?: true }) => {
  if (message.records) pipeline.take(message.records);
  if (message.close) {
    void pipeline
      .shutdown()
      .catch(() => {})
      .then(() => parentPort!.postMessage({ closed: true }));
  }
});
parentPort!.postMessage({ ready: true });
