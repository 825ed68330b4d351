import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampWidth, type Side } from './column-layout.ts';

const STEP = 16;

/**
 * The handle between a side column and the editor: drag it, or focus it and use the arrow keys,
 * to resize; Enter or a double click folds the column away or brings it back.
 */
export function ColumnSplitter({ side, label, width, collapsed, onWidth, onToggle }: { side: Side; label: string; width: number; collapsed: boolean; onWidth(width: number): void; onToggle(): void }) {
  const drag = useRef<{ x: number; width: number } | undefined>(undefined);
  // Dragging right widens the left column and narrows the right one.
  const sign = side === 'left' ? 1 : -1;
  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    if (collapsed) return;
    drag.current = { x: e.clientX, width };
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    if (!drag.current) return;
    onWidth(clampWidth(drag.current.width + sign * (e.clientX - drag.current.x)));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>): void => {
    drag.current = undefined;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onToggle();
    } else if (!collapsed && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      onWidth(clampWidth(width + sign * (e.key === 'ArrowRight' ? STEP : -STEP)));
    }
  };
  return (
    <div
      className={`column-splitter${collapsed ? ' collapsed' : ''}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={collapsed ? 0 : width}
      aria-valuemin={0}
      aria-valuemax={640}
      tabIndex={0}
      title={`${label}: drag or use the arrow keys; Enter or double-click ${collapsed ? 'opens' : 'folds'} it`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={onToggle}
      onKeyDown={onKeyDown}
    />
  );
}
