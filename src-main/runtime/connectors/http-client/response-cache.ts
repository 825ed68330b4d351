import { BoundedMap } from '../../../../shared/bounded-map.ts';

/** A response kept for repeated GETs. */
export interface CachedResponse {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

/**
 * The GET cache of spec 2 §2.8: a fixed time to live whatever the upstream's Cache-Control says,
 * so undici's RFC 9111 cache interceptor does not fit; least recently used entries go first.
 */
export class ResponseCache {
  private readonly entries: BoundedMap<string, { response: CachedResponse; expiresAt: number }>;

  constructor(
    private readonly ttlMs: number,
    maxEntries: number,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry);
    return entry.response;
  }

  set(key: string, response: CachedResponse, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { response, expiresAt: now + this.ttlMs });
  }
}

/**
 * The request headers are part of the key: two callers with different Authorization headers
 * must never see each other's responses.
 */
export function cacheKey(path: string, headers: Record<string, string>): string {
  const names = Object.keys(headers).sort();
  let key = path;
  for (const name of names) key += `\n${name.toLowerCase()}:${headers[name]}`;
  return key;
}
