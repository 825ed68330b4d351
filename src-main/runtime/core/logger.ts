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

/**
 * Replaces every known secret value in a record before any sink sees it. Secret values are
 * registered when a definition loads its declared `secret: true` variables.
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; they are still never logged on purpose.
    if (value && value.length >= 4) this.secrets.add(value);
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    if (this.secrets.size === 0) return text;
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  }

  redactValue(value: unknown, depth = 0): unknown {
    if (this.secrets.size === 0) return value;
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object' || depth > 16) return value;
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v, depth + 1));
    if (value instanceof Uint8Array) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = this.redactValue(v, depth + 1);
    return out;
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
