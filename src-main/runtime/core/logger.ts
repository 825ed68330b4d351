/** Structured logging: every record is one JSON object, so sinks can ship it untouched. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogRecord {
  time: string;
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

export type LogSink = (record: LogRecord) => void;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Nesting below which a redacted record is cut: deeper values become TRUNCATED, never passed through. */
export const REDACT_MAX_DEPTH = 32;
/** Values (strings, numbers, objects…) one record may hold; the rest become TRUNCATED. */
export const REDACT_MAX_NODES = 20_000;
export const TRUNCATED = '[truncated]';

/**
 * Replaces every known secret value before any sink sees it: the one redactor of logs (stderr
 * and the records shipped to the platform) and traces (the trace hub and all its sinks). Secret
 * values are registered when a definition loads its declared `secret: true` variables, and when
 * `secret()` or a `*_secrets` KV read first yields one.
 *
 * Keys are redacted like values, at every depth. A record deeper than REDACT_MAX_DEPTH or with
 * more than REDACT_MAX_NODES values is truncated there: what the walk does not look at cannot
 * leave, so the bound never lets an unexamined value through.
 */
/** A key named __proto__ stays a plain field instead of replacing the prototype. */
function setField(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export class SecretRedactor {
  private readonly secrets = new Set<string>();
  /**
   * The shortest secret's length: a shorter text holds none. Most keys and values of a trace
   * record are (a platform token is tens of characters), and skipping them was most of the walk
   * over each record of a studio run.
   */
  private shortest = Number.POSITIVE_INFINITY;

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; they are still never logged on purpose.
    if (value && value.length >= 4) {
      this.secrets.add(value);
      if (value.length < this.shortest) this.shortest = value.length;
    }
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    if (text.length < this.shortest) return text;
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  }

  /**
   * Masks secrets in JSON text, in their plain and their JSON-escaped spelling, and answers
   * undefined when masking would break the JSON (a secret spanning punctuation): the caller then
   * masks the values instead.
   */
  redactJson(text: string): string | undefined {
    if (this.secrets.size === 0) return text;
    let out = text;
    for (const s of this.secrets) {
      if (out.includes(s)) out = out.split(s).join('[redacted]');
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s && out.includes(escaped)) out = out.split(escaped).join('[redacted]');
    }
    if (out === text) return text;
    try {
      JSON.parse(out);
      return out;
    } catch {
      return undefined;
    }
  }

  /**
   * The value with every secret masked, in keys and values. Copy on write: a value holding no
   * secret comes back as is, so masking each trace event allocates nothing in the usual case.
   */
  redactValue(value: unknown): unknown {
    if (this.secrets.size === 0) return value;
    const budget = { nodes: REDACT_MAX_NODES };
    return this.walk(value, 0, budget);
  }

  private walk(value: unknown, depth: number, budget: { nodes: number }): unknown {
    if (--budget.nodes < 0) return TRUNCATED;
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
    if (depth >= REDACT_MAX_DEPTH) return TRUNCATED;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const masked = this.walk(value[i], depth + 1, budget);
        if (masked !== value[i]) (copy ??= value.slice())[i] = masked;
      }
      return copy ?? value;
    }
    // for…in over own keys, not Object.entries or Object.keys: the walk runs on every trace event
    // of a studio run, and the arrays those build per object were most of what it allocated.
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const k in record) {
      if (!Object.hasOwn(record, k)) continue;
      const v = record[k];
      const key = this.redact(k);
      const masked = this.walk(v, depth + 1, budget);
      if (!out && key === k && masked === v) continue;
      if (!out) {
        out = {};
        for (const before in record) {
          if (before === k) break;
          if (Object.hasOwn(record, before)) setField(out, before, record[before]);
        }
      }
      setField(out, key, masked);
    }
    return out ?? value;
  }
}

export interface LoggerOptions {
  level?: LogLevel;
  sinks?: LogSink[];
  redactor?: SecretRedactor;
  fields?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const sinks = options.sinks ?? [consoleSink];
  const redactor = options.redactor;
  const base = options.fields ?? {};
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (LEVELS[level] < threshold) return;
    let record: LogRecord = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    if (redactor) record = redactor.redactValue(record) as LogRecord;
    for (const sink of sinks) sink(record);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

export const consoleSink: LogSink = (record) => {
  const line = JSON.stringify(record);
  if (record.level === 'error' || record.level === 'warn') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
};

export const silentLogger: Logger = createLogger({ sinks: [] });
