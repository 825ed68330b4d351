import { describe, expect, it } from 'vitest';
import { keyTreeRows } from './key-tree.ts';

const keys = ['orders/2024/7', 'orders/2024/8', 'orders', 'settings', 'orders/9'].map((key, i) => ({ key, version: i + 1 }));
const outline = (rows: ReturnType<typeof keyTreeRows>) => rows.map((r) => `${'  '.repeat(r.depth)}${r.label}${r.kind === 'folder' ? ` (${r.keys})` : ''}`);

describe('key tree', () => {
  it('shows keys with slashes as folders, a key next to the folder of the same name', () => {
    expect(outline(keyTreeRows(keys, new Set()))).toEqual(['orders', 'orders/ (3)', '  2024/ (2)', '    7', '    8', '  9', 'settings']);
  });

  it('hides what is under a collapsed folder', () => {
    expect(outline(keyTreeRows(keys, new Set(['orders/2024/'])))).toEqual(['orders', 'orders/ (3)', '  2024/ (2)', '  9', 'settings']);
  });

  it('keeps each key row pointing at the whole key', () => {
    const row = keyTreeRows(keys, new Set()).find((r) => r.label === '8');
    expect(row).toMatchObject({ kind: 'key', path: 'orders/2024/8', info: { version: 2 } });
  });
});
