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

  useLayoutEffect(() => {
    const el = viewport.current;
    if (followTail && el && atEnd.current) {
      const bottom = Math.max(0, items.length * rowHeight - el.clientHeight);
      if (Math.abs(el.scrollTop - bottom) > 1) el.scrollTop = bottom;
      setScrollTop(el.scrollTop);
    }
  }, [items, followTail, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
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
        atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight;
        setScrollTop(el.scrollTop);
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
