import type { KvKeyRow, KvNamespaceCounts } from '../../platform/index.ts';

/** The most keys the KV view lists at once (as the platform's inspection answers at most). */
export const MAX_LISTED_KEYS = 10_000;
/** Pages of keys a filter searches through at most per view, so a huge namespace stays cheap to poll. */
const MAX_SEARCHED_PAGES = 10;
/** Listings remembered (namespace and filter pairs: a view per tab, a few tabs). */
const MAX_LISTINGS = 8;

export interface KeyLister {
  keys(namespace: string, prefix?: string, limit?: number, after?: string): Promise<KvKeyRow[]>;
}

export interface KeyListing {
  keys: KvKeyRow[];
  /** More keys (or more matches) exist than are listed. */
  cut: boolean;
}

/**
 * The keys of a namespace the KV view lists: the first 10,000, or with a filter those containing
 * it (any case) among every key, paging through them, so a key past the first 10,000 can still be
 * found. `cut` says more keys (or more matches) exist than are listed.
 */
export async function listedKeys(kv: KeyLister, namespace: string, total: number, filter: string | undefined): Promise<KeyListing> {
  const needle = filter?.trim().toLowerCase();
  if (!needle) {
    const keys = await kv.keys(namespace);
    return { keys, cut: total > keys.length };
  }
  const found: KvKeyRow[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_SEARCHED_PAGES; page++) {
    const rows = await kv.keys(namespace, '', MAX_LISTED_KEYS, after);
    for (const row of rows) {
      if (!row.key.toLowerCase().includes(needle)) continue;
      if (found.length === MAX_LISTED_KEYS) return { keys: found, cut: true };
      found.push(row);
    }
    if (rows.length < MAX_LISTED_KEYS) return { keys: found, cut: false };
    after = rows[rows.length - 1].key;
  }
  return { keys: found, cut: true };
}

interface Remembered {
  keys: number;
  lastVersion: number;
  listing: KeyListing;
}

/**
 * The KV view's listings, reused while their namespace is unchanged. The view polls every second,
 * and each poll read up to 10,000 keys, or with a filter paged through up to 100,000 of them,
 * though nothing had been written. A namespace's key count and highest version (read on every
 * poll anyway) change with every write and delete in it, which lists it again.
 */
export class KeyListings {
  private readonly remembered = new Map<string, Remembered>();

  async listed(kv: KeyLister, counts: KvNamespaceCounts | undefined, namespace: string, filter: string | undefined): Promise<KeyListing> {
    const id = `${namespace}\u0000${filter?.trim().toLowerCase() ?? ''}`;
    const keys = counts?.keys ?? 0;
    const lastVersion = counts?.lastVersion ?? 0;
    const last = this.remembered.get(id);
    if (last && last.keys === keys && last.lastVersion === lastVersion) return last.listing;
    const listing = await listedKeys(kv, namespace, keys, filter);
    this.remembered.delete(id);
    this.remembered.set(id, { keys, lastVersion, listing });
    if (this.remembered.size > MAX_LISTINGS) this.remembered.delete(this.remembered.keys().next().value!);
    return listing;
  }
}
