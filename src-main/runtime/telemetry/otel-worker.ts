import { parentPort, workerData } from 'node:worker_threads';
import { OtelPipeline } from './otel-pipeline.ts';
import { unpackRecords, type PackedRecords } from './otel-wire.ts';
import type { OtelConfig } from './otel-config.ts';

/** The export pipeline on its own thread: batches of records in, `closed` out once flushed. */
const { config, integration, deployment } = workerData as { config: OtelConfig; integration?: string; deployment?: string };
const pipeline = new OtelPipeline(config, { integration, deployment });
parentPort!.on('message', (message: { rows?: PackedRecords; close?: true }) => {
  if (message.rows) pipeline.take(unpackRecords(message.rows));
  if (message.close) {
    void pipeline
      .shutdown()
      .catch(() => {})
      .then(() => parentPort!.postMessage({ closed: true }));
  }
});
parentPort!.postMessage({ ready: true });
