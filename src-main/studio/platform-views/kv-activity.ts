import type { HistoryWindow, KvKeyInfo, KvNamespaceInfo, KvViewQuery, KvWriteEvent } from '../../../shared/platform-views.ts';
import type { KvKeyRow, KvNamespaceCounts, PlatformEvent } from '../../platform/index.ts';
import { EventHistory, type HistoryLimits } from './event-history.ts';
import type { RunLinks } from './run-links.ts';

/** A write as kept: the run it named (X-Flow-Run-Id), if any, is resolved to a link when shown. */
type KvRecord = Omit<KvWriteEvent, 'run' | 'possibleRuns'> & { runId?: string };
type KvPlatformEvent = Extract<PlatformEvent, { type: 'kv.put' | 'kv.delete' }>;

const KV_BLOCKS = ['kv-put', 'kv-delete'] as const;
const DEFAULT_LIMIT = 300;

export const isSecretNamespace = (ns: string): boolean => ns.endsWith('_secrets');
export const isVolatileNamespace = (ns: string): boolean => ns.endsWith('_volatile');

/** What the KV view reads from the store. */
export interface KvStoreView {
  namespaces(): KvNamespaceCounts[];
  keys(namespace: string): KvKeyRow[];
}

/**
 * KV writes as the studio shows them: a bounded history of puts and deletes with the run that
 * made each, the keys of `*_volatile` namespaces (the store keeps them in memory, unlisted), and
 * keys as of an earlier moment, rebuilt from the current ones by undoing later writes.
 */
export class KvActivity {
  readonly history: EventHistory<KvRecord>;
  private readonly volatile = new Map<string, Map<string, KvKeyInfo>>();
  fromStudio = false;

  constructor(
    limits: HistoryLimits,
    private readonly links: RunLinks,
  ) {
    this.history = new EventHistory(limits);
  }

  handle(e: KvPlatformEvent): void {
    const fromStudio = this.fromStudio ? { fromStudio: true } : e.runId ? { runId: e.runId } : {};
    if (e.type === 'kv.put') {
      this.history.push({ at: e.at, action: 'put', namespace: e.namespace, key: e.key, version: e.version, bytes: e.bytes, created: e.created, ...fromStudio });
      if (isVolatileNamespace(e.namespace)) this.volatileKeys(e.namespace).set(e.key, { key: e.key, version: e.version, updatedAt: e.at, bytes: e.bytes });
    } else {
      this.history.push({ at: e.at, action: 'delete', namespace: e.namespace, key: e.key, ...fromStudio });
      this.volatile.get(e.namespace)?.delete(e.key);
    }
  }

  view(query: KvViewQuery, store: KvStoreView, now: number): { at: number; live: boolean; namespaces: KvNamespaceInfo[]; keys: KvKeyInfo[]; writes: KvWriteEvent[]; history: HistoryWindow } {
    const live = query.at == null || query.at >= now;
    const at = live ? now : query.at!;
    const namespaces: KvNamespaceInfo[] = store.namespaces().map((n) => ({ namespace: n.namespace, keys: n.keys, updatedAt: n.updatedAt, secret: isSecretNamespace(n.namespace), volatile: false }));
    for (const [ns, keys] of this.volatile) {
      if (keys.size > 0) namespaces.push({ namespace: ns, keys: keys.size, secret: false, volatile: true, updatedAt: Math.max(...[...keys.values()].map((k) => k.updatedAt ?? 0)) });
    }
    namespaces.sort((a, b) => a.namespace.localeCompare(b.namespace));
    const ns = query.namespace ?? undefined;
    let keys: KvKeyInfo[] = [];
    let writes: KvWriteEvent[] = [];
    if (ns !== undefined) {
      const current: KvKeyInfo[] = isVolatileNamespace(ns) ? [...(this.volatile.get(ns)?.values() ?? [])] : store.keys(ns);
      keys = live ? current : this.keysAt(ns, current, at);
      keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_LIMIT), 2000);
      writes = this.history.newest(limit, live ? undefined : at, (e) => e.namespace === ns).map((e) => this.withRun(e));
    }
    return { at, live, namespaces, keys, writes, history: this.history.window(now) };
  }

  /** The last write of a key the history holds, with its run. */
  lastWrite(namespace: string, key: string): KvWriteEvent | undefined {
    const found = this.history.newest(1, undefined, (e) => e.namespace === namespace && e.key === key)[0];
    return found && this.withRun(found);
  }

  /**
   * Keys as they were at `at`: a key first written after it did not exist yet; one changed or
   * deleted after it had the version of its last write before (unknown when that fell out of
   * history, shown as 0).
   */
  private keysAt(namespace: string, current: KvKeyInfo[], at: number): KvKeyInfo[] {
    const byKey = new Map(current.map((k) => [k.key, { ...k }]));
    const before = new Map<string, KvRecord>();
    const after = new Map<string, KvRecord>();
    for (const e of this.history.all((x) => x.namespace === namespace)) {
      if (e.at <= at) before.set(e.key, e);
      else if (!after.has(e.key)) after.set(e.key, e);
    }
    for (const [key, firstAfter] of after) {
      const last = before.get(key);
      const existed = last ? last.action === 'put' : !(firstAfter.action === 'put' && firstAfter.created);
      if (!existed) {
        byKey.delete(key);
        continue;
      }
      byKey.set(key, { key, version: last?.version ?? 0, changedSince: true, ...(last ? { updatedAt: last.at, bytes: last.bytes } : {}) });
    }
    return [...byKey.values()];
  }

  private withRun(record: KvRecord): KvWriteEvent {
    const { runId, ...e } = record;
    if (e.fromStudio) return e;
    if (runId) {
      const named = this.links.byRunId(runId, 'writer');
      return named ? { ...e, run: named } : e;
    }
    const { run, candidates } = this.links.stepAt(e.at, KV_BLOCKS, 'writer');
    if (run) return { ...e, run };
    return candidates > 1 ? { ...e, possibleRuns: candidates } : e;
  }

  private volatileKeys(ns: string): Map<string, KvKeyInfo> {
    let keys = this.volatile.get(ns);
    if (!keys) this.volatile.set(ns, (keys = new Map()));
    return keys;
  }
}
