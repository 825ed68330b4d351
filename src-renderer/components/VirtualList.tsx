import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  renderRow(item: NoInfer<T>, index: number): ReactNode;
  rowKey(item: NoInfer<T>, index: number): string | number;
  /** Keep the newest (last) row in view while the list is scrolled to its end. */
  followTail?: boolean;
  label: string;
  empty?: ReactNode;
}

const OVERSCAN = 8;

/**
 * A list that renders only the rows in view (plus a few), so ten thousand rows cost what forty
 * do. Rows have one fixed height; the list scrolls itself and follows the tail when asked.
 */
export function VirtualList<T>({ items, rowHeight, renderRow, rowKey, followTail = false, label, empty }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const atEnd = useRef(true);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  // While it follows the tail the list renders the last rows straight away from its own sizes,
  // instead of reading the scroll position back after the commit and rendering twice.
  const following = followTail && atEnd.current;
  const tailTop = Math.max(0, items.length * rowHeight - height);
  const top = following ? tailTop : scrollTop;

  useLayoutEffect(() => {
    const el = viewport.current;
    if (following && el && Math.abs(el.scrollTop - tailTop) > 1) el.scrollTop = tailTop;
  }, [following, tailTop]);

  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={rowKey(items[i], i)} className="vlist-row" role="row" aria-rowindex={i + 1} style={{ top: i * rowHeight, height: rowHeight }}>
        {renderRow(items[i], i)}
      </div>,
    );
  }

  return (
    <div
      ref={viewport}
      className="vlist"
      role="table"
      aria-label={label}
      aria-rowcount={items.length}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        const wasAtEnd = atEnd.current;
        atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight;
        // At the tail the rows follow the items, not the scroll position (see above): the list's
        // own move to the tail needs no second render.
        if (!(followTail && wasAtEnd && atEnd.current)) setScrollTop(el.scrollTop);
      }}
    >
      {items.length === 0 && empty ? (
        empty
      ) : (
        <div className="vlist-body" style={{ height: items.length * rowHeight }}>
          {rows}
        </div>
      )}
    </div>
  );
}
