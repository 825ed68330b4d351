import { parentPort, workerData } from 'node:worker_threads';
import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { openTelemetryFile } from './telemetry-database.ts';
import { SqliteTelemetry } from './sqlite-telemetry.ts';
import type { WriterReply, WriterRequest, WriterSetup } from './telemetry-writer.ts';

/** The telemetry writer's thread: appends and prunes on a connection of its own, one request at a time, in order. */
const { file, retention } = workerData as WriterSetup;
let at = 0;
// Every request carries the time it was made at: receipt times and ages are the caller's clock's.
const clock: Clock = { ...systemClock, now: () => at };
const db = openTelemetryFile(file);
const stores = {
  traces: new SqliteTelemetry(db, 'trace_batches', retention.traces, clock),
  logs: new SqliteTelemetry(db, 'log_batches', retention.logs, clock),
};
const reply = (message: WriterReply): void => parentPort!.postMessage(message);

parentPort!.on('message', (m: WriterRequest) => {
  at = m.at;
  if (m.op === 'close') {
    db.close();
    reply({ id: m.id, closed: true });
    return;
  }
  const store = stores[m.kind];
  try {
    if (m.op === 'append') store.appendNow({ count: m.count, text: m.text });
    else store.pruneNow();
    reply({ id: m.id, kept: store.kept });
  } catch (err) {
    reply({ id: m.id, error: (err as Error).message });
  }
});
reply({ ready: true });
