import { useMemo, useState } from 'react';
import type { KvKeyInfo } from '../../../shared/platform-views.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { keyTreeRows } from './key-tree.ts';
import { VisibleKey, visibleKey } from './VisibleKey.tsx';

/**
 * The keys of a namespace as a tree of their slash-separated parts, filterable; a key opens its
 * entry. The filter is the browser's (it also asks the platform for keys past those listed).
 */
export function KeyTree({
  keys,
  selected,
  onSelect,
  filter,
  onFilter,
}: {
  keys: KvKeyInfo[];
  selected: string | undefined;
  onSelect: (key: string) => void;
  filter: string;
  onFilter: (filter: string) => void;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return keyTreeRows(needle ? keys.filter((k) => k.key.toLowerCase().includes(needle)) : keys, collapsed);
  }, [keys, filter, collapsed]);
  const toggle = (path: string): void =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  return (
    <div className="pv-keys">
      <input type="search" aria-label="Filter keys" placeholder="Filter keys" value={filter} onChange={(e) => onFilter(e.currentTarget.value)} />
      <VirtualList
        label="Keys"
        items={rows}
        rowHeight={26}
        rowKey={(r) => `${r.kind}:${r.path}`}
        empty={<p className="muted pv-empty">{keys.length === 0 ? 'No keys in this namespace.' : 'No key matches.'}</p>}
        renderRow={(r) =>
          r.kind === 'folder' ? (
            <button type="button" className="pv-tree-row pv-folder" style={{ paddingLeft: 6 + r.depth * 14 }} aria-expanded={!collapsed.has(r.path)} onClick={() => toggle(r.path)}>
              {collapsed.has(r.path) ? '▸' : '▾'} <VisibleKey text={r.label} /> <span className="muted">{r.keys}</span>
            </button>
          ) : (
            <button
              type="button"
              className={`pv-tree-row pv-key${r.path === selected ? ' selected' : ''}${r.info.changedSince ? ' changed' : ''}`}
              style={{ paddingLeft: 20 + r.depth * 14 }}
              aria-label={`Key ${visibleKey(r.path)}`}
              aria-current={r.path === selected ? 'true' : undefined}
              onClick={() => onSelect(r.path)}
            >
              <VisibleKey text={r.label} /> <span className="muted">v{r.info.version || '?'}</span>
              {r.info.changedSince ? <span className="pv-tag">changed since</span> : null}
            </button>
          )
        }
      />
    </div>
  );
}
