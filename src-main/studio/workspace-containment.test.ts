import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposerRequest } from '../../shared/request-types.ts';
import type { StudioApi } from '../../shared/studio-api.ts';
import { startStudioHarness, type StudioHarness } from './testing/studio-harness.ts';

/**
 * Issue 18 item 8: the studio never reads or writes outside its workspace. Every StudioApi call
 * that touches files is tried against a symbolic link leading out; each must refuse, and the
 * file outside must be unread (its text never returned) and unchanged.
 */
const FLOW = `flows:\n  hello:\n    steps:\n      - log: {message: '"hi"'}\n`;
const OUTSIDE_TEXT = 'OUTSIDE-0f3c-never-read';
const OUTSIDE = /outside the workspace/;

let h: StudioHarness;
let api: StudioApi;
let outside: string;
let bundle: string;

const outsideFiles = (): Record<string, string> => ({
  secret: readFileSync(join(outside, 'secret.txt'), 'utf8'),
  env: readFileSync(join(outside, 'secret.env'), 'utf8'),
  flows: readFileSync(join(outside, 'integration', 'flows.yaml'), 'utf8'),
});

beforeAll(async () => {
  h = await startStudioHarness({
    inside: { 'flows.yaml': FLOW, 'real.txt': 'inside text', 'env/base.env': 'A=1\n' },
    linked: { 'flows.yaml': FLOW, 'env/base.env': 'A=1\n' },
    tlink: { 'flows.yaml': FLOW },
  });
  api = h.backend.api;
  outside = mkdtempSync(join(tmpdir(), 'studio-outside-'));
  writeFileSync(join(outside, 'secret.txt'), OUTSIDE_TEXT);
  writeFileSync(join(outside, 'secret.env'), `LEAK=${OUTSIDE_TEXT}\n`);
  mkdirSync(join(outside, 'integration', 'env'), { recursive: true });
  writeFileSync(join(outside, 'integration', 'flows.yaml'), FLOW + `# ${OUTSIDE_TEXT}\n`);
  mkdirSync(join(outside, 'templates'));
  writeFileSync(join(outside, 'templates', 't.txt'), OUTSIDE_TEXT);
  mkdirSync(join(outside, 'requests', 'any'), { recursive: true });
  writeFileSync(join(outside, 'requests', 'any', 'r.json'), JSON.stringify({ name: OUTSIDE_TEXT, method: 'GET', url: 'http://127.0.0.1/' }));
  mkdirSync(join(outside, 'dir'));

  const ws = h.workspaceDir;
  symlinkSync(join(outside, 'integration'), join(ws, 'escape')); // a symlinked integration folder
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'linked', 'notes.txt')); // a file link
  symlinkSync(join(outside, 'dir'), join(ws, 'linked', 'sub')); // a folder link
  symlinkSync(join(outside, 'secret.env'), join(ws, 'linked', 'env', 'leak.env'));
  symlinkSync(join(outside, 'templates'), join(ws, 'tlink', 'template'));
  symlinkSync(join(outside, 'requests'), join(ws, 'requests'));
  symlinkSync(join(ws, 'inside', 'real.txt'), join(ws, 'inside', 'alias.txt')); // stays inside: allowed
  bundle = (await api.exportBundle('inside')).base64;
});

afterAll(async () => {
  await h.close();
  rmSync(outside, { recursive: true, force: true });
});

const before = (): Record<string, string> => outsideFiles();
async function refuses(call: () => Promise<unknown>): Promise<void> {
  const was = before();
  await expect((async () => call())()).rejects.toThrow(OUTSIDE);
  expect(outsideFiles()).toEqual(was);
}

describe('every StudioApi call that touches files stays inside the workspace', () => {
  it('readFile refuses a file link and a symlinked integration folder', async () => {
    await refuses(() => api.readFile('linked', 'notes.txt'));
    await refuses(() => api.readFile('escape', 'flows.yaml'));
  });

  it('writeFile refuses a file link and a file under a folder link, creating nothing outside', async () => {
    await refuses(() => api.writeFile('linked', 'notes.txt', 'overwritten'));
    await refuses(() => api.writeFile('linked', 'sub/new.txt', 'planted'));
    await refuses(() => api.writeFile('escape', 'flows.yaml', 'overwritten'));
    expect(existsSync(join(outside, 'dir', 'new.txt'))).toBe(false);
  });

  it('listIntegrations does not list a symlinked integration folder', async () => {
    expect((await api.listIntegrations()).map((i) => i.id)).not.toContain('escape');
  });

  it('listResources refuses a symlinked kind folder', async () => {
    await refuses(() => api.listResources('tlink'));
    await refuses(() => api.listResources('escape'));
  });

  it('readResource refuses a resource link', async () => {
    await refuses(() => api.readResource('linked', 'env', 'leak.env'));
    await refuses(() => api.readResource('tlink', 'template', 't.txt'));
  });

  it('checkResourceName refuses to look through a symlinked kind folder', async () => {
    await refuses(() => api.checkResourceName('tlink', 'template', 't.txt'));
  });

  it('createResource refuses under a symlinked kind folder, creating nothing outside', async () => {
    await refuses(() => api.createResource('tlink', 'template', 'planted.txt', 'x'));
    expect(existsSync(join(outside, 'templates', 'planted.txt'))).toBe(false);
  });

  it('saveResource refuses a resource link', async () => {
    await refuses(() => api.saveResource('linked', 'env', 'leak.env', 'LEAK=overwritten\n'));
  });

  it('renameResource refuses a resource link', async () => {
    await refuses(() => api.renameResource('linked', 'env', 'leak.env', 'moved.env'));
  });

  it('deleteResource refuses a resource link', async () => {
    await refuses(() => api.deleteResource('linked', 'env', 'leak.env'));
    expect(existsSync(join(h.workspaceDir, 'linked', 'env', 'leak.env'))).toBe(true);
  });

  it('createDefinitionFile, renameDefinitionFile and deleteDefinitionFile refuse a symlinked integration', async () => {
    await refuses(() => api.createDefinitionFile('escape', 'planted.yaml'));
    await refuses(() => api.renameDefinitionFile('escape', 'flows.yaml', 'moved.yaml'));
    await refuses(() => api.deleteDefinitionFile('escape', 'flows.yaml'));
    expect(existsSync(join(outside, 'integration', 'planted.yaml'))).toBe(false);
  });

  it('validateDefinition refuses a symlinked integration', async () => {
    await refuses(() => api.validateDefinition('escape', []));
  });

  it('startIntegration refuses a symlinked integration and a symlinked resource folder', async () => {
    await refuses(() => api.startIntegration('escape'));
    // Refused at load: the run fails naming why, instead of mirroring the outside folder to the platform.
    const state = await api.startIntegration('tlink');
    expect(state.status).toBe('failed');
    expect(JSON.stringify(state)).toMatch(OUTSIDE);
    expect(JSON.stringify(state)).not.toContain(OUTSIDE_TEXT);
  });

  it('environmentView refuses a symlinked integration and never reads a resource link', async () => {
    await refuses(() => api.environmentView({ kind: 'working-copy', integration: 'escape' }));
    expect(JSON.stringify(await api.environmentView({ kind: 'working-copy', integration: 'linked' }))).not.toContain(OUTSIDE_TEXT);
  });

  it('exportBundle, previewBundleImport and importBundle refuse a symlinked integration', async () => {
    await refuses(() => api.exportBundle('escape'));
    await refuses(() => api.exportBundle('tlink'));
    // Links to files are not part of the working copy: the bundle holds no byte of their targets.
    expect(Buffer.from((await api.exportBundle('linked')).base64, 'base64').toString('latin1')).not.toContain(OUTSIDE_TEXT);
    await refuses(() => api.previewBundleImport('escape', bundle));
    await refuses(() => api.importBundle('escape', bundle));
    expect(existsSync(join(outside, 'integration', 'real.txt'))).toBe(false);
  });

  it('createTag refuses a symlinked integration', async () => {
    await refuses(() => api.createTag('escape', 'v1'));
  });

  it('savedRequests, saveRequest, deleteSavedRequest and saveRequestEnvironments refuse a symlinked requests folder', async () => {
    const request: ComposerRequest = { name: 'planted', method: 'GET', url: 'http://127.0.0.1/', pathParams: {}, query: [], headers: [], body: { kind: 'none' }, sign: false };
    await refuses(() => api.savedRequests());
    await refuses(() => api.saveRequest(request));
    await refuses(() => api.deleteSavedRequest('any/r.json'));
    await refuses(() => api.saveRequestEnvironments({ environments: [{ name: 'e', vars: {} }] }));
    expect(JSON.stringify(await api.requestEnvironments())).not.toContain(OUTSIDE_TEXT);
    expect(existsSync(join(outside, 'requests', 'any', 'r.json'))).toBe(true);
    expect(existsSync(join(outside, 'requests', 'environments.json'))).toBe(false);
  });

  it('still follows links that stay inside the workspace', async () => {
    expect(await api.readFile('inside', 'alias.txt')).toBe('inside text');
  });
});
