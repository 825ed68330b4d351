import type { MongoClientOptions } from 'mongodb';
import type { Settings } from '../../core/component.ts';
import { formatDuration } from '../../core/duration.ts';
import { decode, formatConnectionString, maskConnectionString, parseConnectionString, withoutOptions } from './connection-string.ts';
import type { docstoreDef } from './docstore.def.ts';

export type DocstoreSettings = Settings<typeof docstoreDef.settings>;

const DEFAULT_MAX_POOL_SIZE = 32;
const DEFAULT_TIMEOUT_MS = 30_000;
const DRIVER_CONNECT_TIMEOUT_MS = 30_000;

/** Everything the connector needs to open a client, worked out without any I/O. */
export interface ClientConfig {
  /** The URI handed to the driver: password merged in. Never log it; log `maskedUri`. */
  uri: string;
  maskedUri: string;
  options: MongoClientOptions;
  timeoutMs: number;
  /** The database blocks use when they name none: the setting, else the URI path. */
  database: string | undefined;
  /** The user named in the URI, decoded, for messages. */
  user: string | undefined;
  /** Every form of the password that could show up in a driver message, to scrub it. */
  secrets: string[];
  warnings: string[];
}

/**
 * Merges the settings into the connection string. A setting wins over the same option in the URI;
 * a default fills only a gap neither filled. Throws a message that never holds the password.
 */
export function clientConfigOf(s: DocstoreSettings): ClientConfig {
  let cs = parseConnectionString(s.uri);
  const warnings: string[] = [];
  const secrets = new Set<string>();
  if (cs.password !== undefined) {
    secrets.add(cs.password);
    secrets.add(decode(cs.password));
  }
  if (s.password !== undefined && s.password !== '') {
    if (cs.user === undefined) {
      throw new Error('a password is set but the uri names no user; write the user in the uri, e.g. mongodb://appuser@db.example.com:27017');
    }
    if (cs.password !== undefined) {
      warnings.push('the uri holds a password and the password setting is set; using the password setting');
    }
    const encoded = encodeURIComponent(s.password);
    secrets.add(s.password);
    secrets.add(encoded);
    cs = { ...cs, password: encoded };
  }

  const uriNumber = (name: string): number | undefined => {
    const raw = cs.options.get(name.toLowerCase());
    const n = raw === undefined ? NaN : Number(raw);
    return Number.isFinite(n) ? n : undefined;
  };
  // timeoutMS is the URI's spelling of `timeout`; the driver no longer acts on it, so it is taken
  // out here and enforced by the connector.
  const timeoutMs = s.timeout ?? uriNumber('timeoutMS') ?? DEFAULT_TIMEOUT_MS;
  if (timeoutMs <= 0) throw new Error(`timeout must be more than 0, got ${formatDuration(timeoutMs)}`);
  cs = withoutOptions(cs, ['timeoutMS']);

  // Server selection gets slightly less than the timeout, so that when a server is unreachable
  // the driver's own reason (e.g. ECONNREFUSED) arrives before the connector's deadline.
  const selectionMs = Math.max(1, timeoutMs - Math.min(100, Math.floor(timeoutMs / 10)));
  const options: MongoClientOptions = {
    serverSelectionTimeoutMS: Math.min(selectionMs, uriNumber('serverSelectionTimeoutMS') ?? Infinity),
    connectTimeoutMS: Math.min(timeoutMs, uriNumber('connectTimeoutMS') ?? DRIVER_CONNECT_TIMEOUT_MS),
  };
  if (s.maxPoolSize !== undefined) options.maxPoolSize = s.maxPoolSize;
  else if (uriNumber('maxPoolSize') === undefined) options.maxPoolSize = DEFAULT_MAX_POOL_SIZE;
  if (s.minPoolSize !== undefined) options.minPoolSize = s.minPoolSize;
  if (s.maxConnIdleTime !== undefined) options.maxIdleTimeMS = s.maxConnIdleTime;

  const uri = formatConnectionString(cs);
  return {
    uri,
    maskedUri: maskConnectionString(uri),
    options,
    timeoutMs,
    database: s.database ?? cs.database,
    user: cs.user === undefined ? undefined : decode(cs.user),
    secrets: [...secrets].filter((v) => v.length > 0),
    warnings,
  };
}
