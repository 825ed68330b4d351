import { useMemo, type ReactNode } from 'react';
import type { PlatformFeedEvent } from '../store/feed-slice.ts';
import { useStudio } from '../store/studio-store.ts';
import { clockTime } from '../shell/format.ts';
import { objectKey } from './object-key.ts';
import { VirtualList } from './VirtualList.tsx';

/** A live list of platform events of the given kinds. */
export function PlatformEventList({ kinds, label, empty }: { kinds: PlatformFeedEvent['kind'][]; label: string; empty: ReactNode }) {
  const all = useStudio((s) => s.platformEvents);
  const key = kinds.join(',');
  const items = useMemo(() => {
    const wanted = new Set(key.split(','));
    return all.filter((e) => wanted.has(e.kind));
  }, [all, key]);
  return (
    <VirtualList
      label={label}
      items={items}
      rowHeight={24}
      followTail
      rowKey={objectKey}
      empty={empty}
      renderRow={(e) => (
        <div className="event-row">
          <span className="cell time">{clockTime(e.at)}</span>
          <span className="cell kind">{e.kind}</span>
          <span className="cell action">{e.action}</span>
          <span className="cell name">{subjectOf(e)}</span>
          <span className="cell fields muted">{e.detail ? JSON.stringify(e.detail) : ''}</span>
        </div>
      )}
    />
  );
}

function subjectOf(e: PlatformFeedEvent): string {
  if (e.kind === 'queue' || e.kind === 'topic') return e.subject;
  if (e.kind === 'kv') return `${e.namespace} ${e.key}`;
  return e.name;
}
