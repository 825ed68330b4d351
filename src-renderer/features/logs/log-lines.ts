import type { LogEntry, LogFeedEvent } from '../../../shared/feed-events.ts';
import type { PlatformFeedEvent } from '../../store/feed-slice.ts';

/** One line of the tail: a runtime's log record, or something the platform did. */
export interface LogLine {
  at: number;
  level: LogEntry['level'];
  /** The integration a runtime line came from, or `platform`. */
  origin: string;
  msg: string;
  fields: Record<string, unknown>;
  runId?: string;
  /** Lower-cased text the search looks in. */
  text: string;
}

const LEVELS: Record<LogEntry['level'], number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function atLeast(level: LogEntry['level'], min: LogEntry['level']): boolean {
  return LEVELS[level] >= LEVELS[min];
}

const cache = new WeakMap<object, LogLine>();

export function runtimeLine(e: LogFeedEvent): LogLine {
  let line = cache.get(e);
  if (line) return line;
  const { integration: _integration, ...fields } = e.log.fields;
  const runId = typeof fields.runId === 'string' ? fields.runId : undefined;
  const origin = e.integration ?? (typeof fields.origin === 'string' ? fields.origin : 'runtime');
  const msg = e.log.msg;
  line = { at: e.at, level: e.log.level, origin, msg, fields, runId, text: `${origin} ${msg} ${JSON.stringify(fields)}`.toLowerCase() };
  cache.set(e, line);
  return line;
}

/** Platform traffic (queues, topics, KV, leases) as info lines of origin `platform`. */
export function platformLine(e: PlatformFeedEvent): LogLine {
  let line = cache.get(e);
  if (line) return line;
  const subject = e.kind === 'queue' || e.kind === 'topic' ? e.subject : e.kind === 'kv' ? `${e.namespace}/${e.key}` : e.name;
  const msg = `${e.kind} ${e.action} ${subject}`;
  const fields = e.detail ?? {};
  line = { at: e.at, level: 'info', origin: 'platform', msg, fields, text: `platform ${msg} ${JSON.stringify(fields)}`.toLowerCase() };
  cache.set(e, line);
  return line;
}

/** Two time-ordered lists as one, in time order. */
export function mergeByTime(a: readonly LogLine[], b: readonly LogLine[]): LogLine[] {
  if (b.length === 0) return a as LogLine[];
  if (a.length === 0) return b as LogLine[];
  const out: LogLine[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i].at <= b[j].at ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}
