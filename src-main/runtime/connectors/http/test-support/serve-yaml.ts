import { createLogger, type LogRecord } from '../../../core/logger.ts';
import { Runtime } from '../../../core/runtime.ts';
import type { TraceRecord } from '../../../core/trace.ts';
import { testRegistry } from './test-registry.ts';
import { REFUSED_BEFORE_FLOW } from '../../../../../shared/trace-record.ts';

export interface Served {
  /** Base URL of the first http connector, e.g. `http://127.0.0.1:40123`. */
  url: string;
  runtime: Runtime;
  logs: LogRecord[];
  /** Run-level trace events (one per finished flow run), newest last. */
  runs: TraceRecord[];
  /** Run records of requests refused before the flow ran (400 bad body, 413 too large, 408 stalled, 503 not running or maxStreams): no flow ran for them. */
  refused: TraceRecord[];
  /** Resolves when a log record with this message appears (or fails after the timeout). */
  logged(msg: string, timeoutMs?: number): Promise<LogRecord>;
  stop(): Promise<void>;
}

/** Starts a definition (with the test-only `wait` block available) and finds its http connector. */
export async function serveYaml(yaml: string, env: Record<string, string> = {}): Promise<Served> {
  const logs: LogRecord[] = [];
  const runtime = Runtime.load([{ file: 'flows.yaml', text: yaml }], {
    registry: testRegistry,
    env,
    log: createLogger({ level: 'debug', sinks: [(r) => logs.push(r)] }),
  });
  const runs: TraceRecord[] = [];
  const refused: TraceRecord[] = [];
  runtime.traces.add({
    emit: (e) => {
      if (e.kind === 'run') (e.error?.startsWith(REFUSED_BEFORE_FLOW) ? refused : runs).push(e);
    },
  });
  await runtime.start();
  const http = runtime.describe().connectors.find((c) => c.type === 'http');
  const url = http?.details?.url;
  if (typeof url !== 'string') throw new Error('the definition has no started http connector');
  const logged = async (msg: string, timeoutMs = 10_000): Promise<LogRecord> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = logs.find((l) => l.msg === msg);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no log "${msg}" within ${timeoutMs}ms; got: ${logs.map((l) => l.msg).join(' | ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { url, runtime, logs, runs, refused, logged, stop: () => runtime.stop(1_000) };
}

/** The usual connector block for tests: loopback, OS-chosen port. */
export const LOOPBACK = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
`;
