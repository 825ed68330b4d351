import type { LogRecord, LogSink } from '../core/logger.ts';

/**
 * A log sink that exists before the platform does. The logger is built first (discovery itself
 * logs), the services later; records written in between are held (at most `maxEarly`) and
 * handed over once `forwardTo` names the platform's log sink.
 */
export function deferredLogSink(maxEarly = 200): { sink: LogSink; forwardTo(target: LogSink): void } {
  let target: LogSink | undefined;
  let early: LogRecord[] | undefined = [];
  return {
    sink(record) {
      if (target) return target(record);
      if (early && early.length < maxEarly) early.push(record);
    },
    forwardTo(next) {
      target = next;
      const held = early ?? [];
      early = undefined;
      for (const r of held) next(r);
    },
  };
}
