import { describe, expect, it } from 'vitest';
import { clampWidth, gridColumns, loadLayout, saveLayout } from './column-layout.ts';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k), clear: () => m.clear(), key: () => null, length: 0 };
}

describe('the Flows panel column layout', () => {
  it('starts with the graph folded on a narrow window and open on a wide one', () => {
    expect(loadLayout(memoryStorage(), 1024).right.collapsed).toBe(true);
    expect(loadLayout(memoryStorage(), 1440).right.collapsed).toBe(false);
  });

  it('remembers widths and folds, keeping widths within bounds and ignoring a broken entry', () => {
    const storage = memoryStorage();
    saveLayout(storage, { left: { width: 5_000, collapsed: true }, right: { width: 300, collapsed: false } });
    expect(loadLayout(storage, 1024)).toEqual({ left: { width: clampWidth(5_000), collapsed: true }, right: { width: 300, collapsed: false } });
    storage.setItem('flow-studio.flows-columns', '{oops');
    expect(loadLayout(storage, 1440).left.width).toBe(250);
  });

  it('gives the editor the rest of the row and a folded column a strip', () => {
    expect(gridColumns({ left: { width: 250, collapsed: false }, right: { width: 360, collapsed: true } })).toBe('minmax(160px, 250px) 6px minmax(320px, 1fr) 6px 30px');
  });
});
