/**
 * The Flows panel's side columns (integrations on the left, graph and blocks on the right): how
 * wide each is and whether it is folded away, remembered in this browser across reloads.
 */
export interface SideColumn {
  width: number;
  collapsed: boolean;
}

export interface ColumnLayout {
  left: SideColumn;
  right: SideColumn;
}

export type Side = keyof ColumnLayout;

const KEY = 'flow-studio.flows-columns';

/** Bounds of a side column's width; the editor keeps at least EDITOR_MIN. */
export const COLUMN_MIN = 160;
export const COLUMN_MAX = 640;
export const EDITOR_MIN = 320;
/** A folded column's strip. */
export const COLLAPSED_WIDTH = 30;

export function defaultLayout(viewportWidth: number): ColumnLayout {
  // Narrow windows start with the graph folded, so the editor has the room (it unfolds in one click).
  const narrow = viewportWidth <= 1200;
  return { left: { width: narrow ? 210 : 250, collapsed: false }, right: { width: narrow ? 260 : 360, collapsed: narrow } };
}

export function clampWidth(width: number): number {
  return Math.round(Math.min(COLUMN_MAX, Math.max(COLUMN_MIN, width)));
}

export function loadLayout(storage: Pick<Storage, 'getItem'> | undefined, viewportWidth: number): ColumnLayout {
  const fallback = defaultLayout(viewportWidth);
  try {
    const parsed = JSON.parse(storage?.getItem(KEY) ?? 'null') as Partial<ColumnLayout> | null;
    if (!parsed) return fallback;
    const side = (s: Partial<SideColumn> | undefined, d: SideColumn): SideColumn => ({
      width: typeof s?.width === 'number' && Number.isFinite(s.width) ? clampWidth(s.width) : d.width,
      collapsed: typeof s?.collapsed === 'boolean' ? s.collapsed : d.collapsed,
    });
    return { left: side(parsed.left, fallback.left), right: side(parsed.right, fallback.right) };
  } catch {
    return fallback;
  }
}

export function saveLayout(storage: Pick<Storage, 'setItem'> | undefined, layout: ColumnLayout): void {
  try {
    storage?.setItem(KEY, JSON.stringify(layout));
  } catch {
    // A browser that refuses storage keeps the layout for this page only.
  }
}

/**
 * The grid's columns: a folded side is a strip, the editor takes the rest. An open side is its
 * width when the window has room and gives way down to COLUMN_MIN when it has not (a window made
 * narrower after the layout was chosen), so the graph is never cut off at the window's edge.
 */
export function gridColumns(layout: ColumnLayout): string {
  const col = (s: SideColumn): string => (s.collapsed ? `${COLLAPSED_WIDTH}px` : `minmax(${Math.min(COLUMN_MIN, s.width)}px, ${s.width}px)`);
  return `${col(layout.left)} 6px minmax(${EDITOR_MIN}px, 1fr) 6px ${col(layout.right)}`;
}
