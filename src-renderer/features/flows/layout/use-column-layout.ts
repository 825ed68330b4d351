import { useCallback, useEffect, useState } from 'react';
import { loadLayout, saveLayout, type ColumnLayout, type Side } from './column-layout.ts';

/** The Flows panel's column layout, kept in localStorage as it changes. */
export function useColumnLayout(): { layout: ColumnLayout; setWidth(side: Side, width: number): void; toggle(side: Side): void } {
  const [layout, setLayout] = useState<ColumnLayout>(() => loadLayout(globalThis.localStorage, globalThis.innerWidth ?? 1440));
  useEffect(() => saveLayout(globalThis.localStorage, layout), [layout]);
  const setWidth = useCallback((side: Side, width: number) => setLayout((l) => ({ ...l, [side]: { ...l[side], width } })), []);
  const toggle = useCallback((side: Side) => setLayout((l) => ({ ...l, [side]: { ...l[side], collapsed: !l[side].collapsed } })), []);
  return { layout, setWidth, toggle };
}
