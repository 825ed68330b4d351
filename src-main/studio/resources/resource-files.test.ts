import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTar } from '../../platform/management/tar.ts';
import { Workspace } from '../workspace.ts';
import { importBundle, previewImport } from './bundle-transfer.ts';
import { ResourceFiles } from './resource-files.ts';

let root: string;
let workspace: Workspace;
let files: ResourceFiles;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resource-files-'));
  mkdirSync(join(root, 'shop'));
  writeFileSync(join(root, 'shop', 'shop.yaml'), 'flows: {}\n');
  workspace = Workspace.open(root);
  files = new ResourceFiles(workspace);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('resource files of an integration', () => {
  it('keeps names unique across kinds and refuses a name that would need a file to be a folder', () => {
    files.create('shop', 'template', 'emails/welcome.txt', 'Hi');
    expect(files.check('shop', 'env', 'emails/welcome.txt')).toMatchObject({ ok: false, code: 'resource_name_duplicate' });
    expect(files.check('shop', 'template', 'emails')).toMatchObject({ ok: false, code: 'resource_name_is_folder' });
    expect(files.check('shop', 'template', 'emails/welcome.txt/more')).toMatchObject({ ok: false, code: 'resource_name_under_file' });
    expect(files.check('shop', 'env', 'shop.yaml')).toMatchObject({ ok: false, code: 'resource_name_root_yaml' });
    expect(files.check('shop', 'env', 'a/../b.env')).toMatchObject({ ok: false, code: 'resource_name_dot_segment' });
    expect(() => files.read('shop', 'env', '../shop.yaml')).toThrow(/".." segment/);
  });

  it('renames into new folders and removes the folders a rename or delete leaves empty', () => {
    files.create('shop', 'template', 'emails/welcome.txt', 'Hi');
    expect(files.rename('shop', 'template', 'emails/welcome.txt', 'mail/en/welcome.txt')).toMatchObject({ file: 'template/mail/en/welcome.txt', bytes: 2 });
    expect(existsSync(join(root, 'shop', 'template', 'emails'))).toBe(false);
    files.delete('shop', 'template', 'mail/en/welcome.txt');
    expect(existsSync(join(root, 'shop', 'template', 'mail'))).toBe(false);
    expect(existsSync(join(root, 'shop', 'template'))).toBe(true);
    expect(files.list('shop')).toEqual([]);
  });
});

describe('bundle import', () => {
  const bundle = async (entries: Array<[string, string]>): Promise<string> => (await writeTar(entries.map(([path, text]) => ({ path, content: Buffer.from(text) })))).toString('base64');

  it('refuses entries that would leave the integration folder, writing nothing', async () => {
    const evil = await bundle([
      ['shop.yaml', 'flows: {}\n'],
      ['env/../../escaped.env', 'A=1'],
    ]);
    await expect(previewImport(workspace, 'shop', evil)).rejects.toThrow(/".." segment/);
    await expect(importBundle(workspace, 'shop', evil)).rejects.toThrow(/".." segment/);
    expect(existsSync(join(root, 'escaped.env'))).toBe(false);
    await expect(previewImport(workspace, '../elsewhere', await bundle([['a.yaml', 'flows: {}\n']]))).rejects.toThrow(/is not an integration id/);
  });

  it('replaces the working copy: creates, overwrites and removes as the preview said', async () => {
    files.create('shop', 'env', 'old.env', 'A=1');
    const preview = await importBundle(workspace, 'shop', await bundle([
      ['shop.yaml', 'flows: {x: 1}\n'],
      ['template/reply.txt', 'Hi'],
    ]));
    expect(preview.entries.map((e) => `${e.change} ${e.path}`)).toEqual(['overwrite shop.yaml', 'create template/reply.txt', 'remove env/old.env']);
    expect(files.list('shop').map((e) => e.file)).toEqual(['template/reply.txt']);
  });
});
