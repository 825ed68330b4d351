import type { KvKeyRow } from '../../platform/index.ts';

/** The most keys the KV view lists at once (as the platform's inspection answers at most). */
export const MAX_LISTED_KEYS = 10_000;
/** Pages of keys a filter searches through at most per view, so a huge namespace stays cheap to poll. */
const MAX_SEARCHED_PAGES = 10;

export interface KeyLister {
  keys(namespace: string, prefix?: string, limit?: number, after?: string): Promise<KvKeyRow[]>;
}

/**
 * The keys of a namespace the KV view lists: the first 10,000, or with a filter those containing
 * it (any case) among every key, paging through them, so a key past the first 10,000 can still be
 * found. `cut` says more keys (or more matches) exist than are listed.
 */
export async function listedKeys(kv: KeyLister, namespace: string, total: number, filter: string | undefined): Promise<{ keys: KvKeyRow[]; cut: boolean }> {
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
