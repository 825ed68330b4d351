import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../runtime/index.ts';
import { tempWorkspace } from './design-test-workspace.ts';
import { DefinitionFiles } from './definition-files.ts';
import { validateDefinition } from './validate-definition.ts';

const registry = await loadRegistry();

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const t = tempWorkspace({ shop: { 'orders.yaml': 'flows:\n  orders:\n    steps: []\n' } });
  cleanup = t.remove;
  return { ...t, files: new DefinitionFiles(t.workspace) };
}

describe('definition files', () => {
  it('creates a file with a starter flow that loads, named so it clashes with no other flow', () => {
    const { files, workspace } = setup();
    expect(files.create('shop', 'orders-2.yaml').definitionFiles).toEqual(['orders-2.yaml', 'orders.yaml']);
    expect(files.create('shop', 'orders.yml').definitionFiles).toContain('orders.yml');
    expect(workspace.readFile('shop', 'orders.yml')).toContain('  orders-3:\n');
    expect(validateDefinition(workspace, registry, 'shop', [])).toEqual([]);
  });

  it('creates a test file with a starter test of the first flow, listed with the tests, that loads and checks clean', () => {
    const { files, workspace } = setup();
    const summary = files.create('shop', 'orders.test.yaml');
    expect(summary).toMatchObject({ definitionFiles: ['orders.yaml'], testFiles: ['orders.test.yaml'] });
    expect(workspace.readFile('shop', 'orders.test.yaml')).toContain('    flow: orders\n');
    expect(validateDefinition(workspace, registry, 'shop', [])).toEqual([]);
  });

  it('renames and deletes, refusing to overwrite or to touch anything but a root-level definition', () => {
    const { files, root } = setup();
    files.create('shop', 'extra.yaml');
    expect(() => files.rename('shop', 'extra.yaml', 'orders.yaml')).toThrow('"orders.yaml" already exists');
    expect(files.rename('shop', 'extra.yaml', 'more.yaml').definitionFiles).toEqual(['more.yaml', 'orders.yaml']);
    expect(() => files.rename('shop', 'more.yaml', '../escape.yaml')).toThrow('is not a definition file name');
    expect(() => files.create('shop', 'notes.txt')).toThrow('ending in .yaml');
    expect(() => files.delete('shop', 'integration.json')).toThrow('is not a definition file name');
    expect(files.delete('shop', 'more.yaml').definitionFiles).toEqual(['orders.yaml']);
    expect(existsSync(join(root, 'shop', 'more.yaml'))).toBe(false);
  });

  it('creates an integration with a manifest and a definition that loads', () => {
    const { files, workspace, root } = setup();
    expect(files.createIntegration('billing')).toMatchObject({ id: 'billing', name: 'billing', definitionFiles: ['flows.yaml'] });
    expect(JSON.parse(readFileSync(join(root, 'billing', 'integration.json'), 'utf8'))).toEqual({ name: 'billing' });
    expect(validateDefinition(workspace, registry, 'billing', [])).toEqual([]);
    expect(() => files.createIntegration('billing')).toThrow('already has a folder "billing"');
    expect(() => files.createIntegration('../up')).toThrow('is not an integration name');
  });
});
