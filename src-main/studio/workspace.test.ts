import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workspace } from './workspace.ts';
import { watchWorkspace, type WorkspaceChange } from './workspace-watch.ts';

const temps: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'studio-ws-'));
  temps.push(d);
  return d;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function samples(): string {
  const dir = temp();
  mkdirSync(join(dir, 'orders-api', 'templates'), { recursive: true });
  writeFileSync(join(dir, 'orders-api', 'orders.yaml'), 'flows: {}\n');
  writeFileSync(join(dir, 'orders-api', 'templates', 'reply.txt'), 'hi');
  return dir;
}

describe('the workspace', () => {
  it('is created on first start with the sample integrations and a manifest', () => {
    const root = join(temp(), 'FlowStudio');
    const ws = Workspace.open(root, samples());
    expect(ws.list()).toEqual([{ id: 'orders-api', name: 'orders-api', definitionFiles: ['orders.yaml'], testFiles: [], resourceFiles: ['templates/reply.txt'] }]);
    expect(JSON.parse(readFileSync(join(root, 'orders-api', 'integration.json'), 'utf8'))).toEqual({ name: 'orders-api' });
  });

  it('leaves an existing workspace as it is', () => {
    const root = temp();
    mkdirSync(join(root, 'mine'));
    writeFileSync(join(root, 'mine', 'a.yaml'), 'flows: {}\n');
    writeFileSync(join(root, 'mine', 'integration.json'), '{"name": "My flows", "description": "d"}');
    const ws = Workspace.open(root, samples());
    expect(ws.list()).toEqual([{ id: 'mine', name: 'My flows', description: 'd', definitionFiles: ['a.yaml'], testFiles: [], resourceFiles: [] }]);
  });

  it('lists flow tests beside the definitions, apart from them and from the resources', () => {
    const root = temp();
    mkdirSync(join(root, 'shop', 'fixtures'), { recursive: true });
    writeFileSync(join(root, 'shop', 'shop.yaml'), 'flows: {}\n');
    writeFileSync(join(root, 'shop', 'shop.test.yaml'), 'tests: {}\n');
    writeFileSync(join(root, 'shop', 'fixtures', 'order.json'), '{}');
    expect(Workspace.open(root).summary('shop')).toEqual({ id: 'shop', name: 'shop', definitionFiles: ['shop.yaml'], testFiles: ['shop.test.yaml'], resourceFiles: ['fixtures/order.json'] });
  });

  it('reads and writes files of an integration but never outside it', () => {
    const ws = Workspace.open(join(temp(), 'ws'), samples());
    ws.writeFile('orders-api', 'env/local.env', 'A=1\n');
    expect(ws.readFile('orders-api', 'env/local.env')).toBe('A=1\n');
    expect(() => ws.readFile('orders-api', '../../etc/passwd')).toThrow(/"\.\." segments are not allowed: it must stay inside the integration folder/);
    expect(() => ws.writeFile('orders-api', '/etc/x', '')).toThrow(/absolute; give a path relative to the integration folder/);
    expect(() => ws.readFile('..', 'x')).toThrow(/not an integration id/);
    expect(() => ws.readFile('missing', 'x')).toThrow(/no integration "missing"/);
  });

  it('reports an edit made by an outside editor, once per burst', async () => {
    const root = join(temp(), 'ws');
    Workspace.open(root, samples());
    const seen: WorkspaceChange[][] = [];
    let onReady: () => void = () => {};
    const ready = new Promise<void>((r) => (onReady = r));
    const stop = watchWorkspace(root, (c) => seen.push(c), { debounceMs: 50, onReady: () => onReady() });
    await ready;
    writeFileSync(join(root, 'orders-api', 'orders.yaml'), 'flows: {a: {steps: []}}\n');
    writeFileSync(join(root, 'orders-api', 'orders.yaml'), 'flows: {b: {steps: []}}\n');
    writeFileSync(join(root, 'orders-api', '.orders.yaml.swp'), 'x');
    for (const deadline = Date.now() + 10_000; seen.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 25));
    stop();
    expect(seen).toEqual([[{ integration: 'orders-api', file: 'orders.yaml' }]]);
    expect(existsSync(join(root, 'orders-api', 'orders.yaml'))).toBe(true);
  });

  it('reports an integration folder removed whole as a change of it with no file, so what runs from it stops', async () => {
    const root = join(temp(), 'ws');
    Workspace.open(root, samples());
    const seen: WorkspaceChange[] = [];
    let onReady: () => void = () => {};
    const ready = new Promise<void>((r) => (onReady = r));
    const stop = watchWorkspace(root, (c) => seen.push(...c), { debounceMs: 60, onReady: () => onReady() });
    await ready;
    try {
      rmSync(join(root, 'orders-api'), { recursive: true });
      for (const deadline = Date.now() + 10_000; !seen.some((c) => c.file === '') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 25));
      expect(seen).toContainEqual({ integration: 'orders-api', file: '' });
    } finally {
      stop();
    }
  });

  it('reports every save that replaces a file by a rename, not only the first', async () => {
    const root = join(temp(), 'ws');
    const ws = Workspace.open(root, samples());
    const seen: WorkspaceChange[][] = [];
    let onReady: () => void = () => {};
    const ready = new Promise<void>((r) => (onReady = r));
    const stop = watchWorkspace(root, (c) => seen.push(c), { debounceMs: 60, onReady: () => onReady() });
    await ready;
    try {
      for (let i = 1; i <= 5; i++) {
        // The studio's own save (temporary file + rename), then an outside editor's rename save.
        if (i % 2 === 1) ws.writeFile('orders-api', 'orders.yaml', `flows: {v${i}: {steps: []}}\n`);
        else {
          writeFileSync(join(root, 'orders-api', 'orders.yaml.new'), `flows: {v${i}: {steps: []}}\n`);
          renameSync(join(root, 'orders-api', 'orders.yaml.new'), join(root, 'orders-api', 'orders.yaml'));
        }
        for (const deadline = Date.now() + 10_000; seen.length < i && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
        expect(seen.length, `save ${i} was reported`).toBe(i);
        expect(seen[i - 1]).toContainEqual({ integration: 'orders-api', file: 'orders.yaml' });
      }
    } finally {
      stop();
    }
  });
});
