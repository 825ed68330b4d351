import { existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleFile, BundleImportEntry, BundleImportPreview } from '../../../shared/resource-types.ts';
import { checkResourceName, filesOfBundle, type IntegrationFiles, type Management } from '../../platform/index.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';
import { syncWorkingCopy, workingCopyFiles } from './working-copy.ts';

/** Bundles are small; this bounds what a call may carry (base64 adds a third). */
const MAX_BUNDLE_BYTES = 8 * 1024 * 1024;
const INTEGRATION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The working copy as the platform's bundle: definitions at the root, resources under env/ and template/. */
export async function exportBundle(management: Management, workspace: Workspace, integration: string, actor: string): Promise<BundleFile> {
  await syncWorkingCopy(management, workspace, integration, actor);
  const tar = await management.bundle(integration);
  return { fileName: `${integration}.tar`, base64: tar.toString('base64'), bytes: tar.length };
}

/** What importing would do, file by file; nothing is written. */
export async function previewImport(workspace: Workspace, integration: string, base64: string): Promise<BundleImportPreview> {
  const { files } = await readBundle(integration, base64);
  return plan(workspace, integration, files);
}

/**
 * Replaces the working copy with the bundle, as an upload to the platform replaces its copy:
 * files of the bundle are created or overwritten, definitions and resources it lacks removed.
 * A running integration hot-reloads from the folder as after any edit.
 */
export async function importBundle(workspace: Workspace, integration: string, base64: string): Promise<BundleImportPreview> {
  const { files } = await readBundle(integration, base64);
  const preview = plan(workspace, integration, files);
  mkdirSync(join(workspace.root, integration), { recursive: true });
  workspace.dirOf(integration); // refuses a symlinked integration folder before anything is written
  const content = new Map<string, Buffer>([
    ...files.definitions.map((d): [string, Buffer] => [d.file, d.content]),
    ...files.resources.map((r): [string, Buffer] => [`${r.kind}/${r.name}`, r.content]),
  ]);
  // Definitions last, so a running integration reloads once its resources are in place.
  const ordered = [...preview.entries].sort((a, b) => Number(a.area === 'definition') - Number(b.area === 'definition'));
  for (const e of ordered) {
    if (e.change === 'create' || e.change === 'overwrite') workspace.writeFile(integration, e.path, content.get(e.path)!.toString('utf8'));
    else if (e.change === 'remove') unlinkSync(workspace.pathIn(integration, ...e.path.split('/')));
  }
  return preview;
}

async function readBundle(integration: string, base64: string): Promise<{ files: IntegrationFiles }> {
  if (typeof integration !== 'string' || !INTEGRATION_ID.test(integration)) {
    throw new StudioError(`"${String(integration).slice(0, 60)}" is not an integration id: 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  }
  if (typeof base64 !== 'string' || base64.length > (MAX_BUNDLE_BYTES * 4) / 3 + 4) throw new StudioError(`a bundle is at most ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB`);
  const archive = Buffer.from(base64, 'base64');
  const files = await filesOfBundle(archive);
  const seen = new Set<string>();
  for (const r of files.resources) {
    // The platform checks names when it replaces its copy; here they become paths on disk.
    checkResourceName(r.name);
    if (seen.has(r.name)) throw new StudioError(`the bundle holds the resource "${r.name}" twice (as env and as template); a name is unique in an integration`);
    seen.add(r.name);
  }
  if (files.definitions.length === 0) throw new StudioError('the bundle holds no definition file (a root-level .yaml); it is not an integration bundle');
  for (const f of [...files.definitions.map((d) => d.content), ...files.resources.map((r) => r.content)]) {
    if (f.includes(0)) throw new StudioError('the bundle holds a binary file; the studio imports text definitions and resources only');
  }
  return { files };
}

function plan(workspace: Workspace, integration: string, files: IntegrationFiles): BundleImportPreview {
  const exists = existsSync(join(workspace.root, integration)) && statSync(join(workspace.root, integration)).isDirectory();
  if (exists) workspace.dirOf(integration); // a symlinked integration folder is refused, not previewed
  const current = new Map<string, Buffer>();
  if (exists) {
    const working = workingCopyFiles(workspace, integration);
    for (const d of working.definitions) current.set(d.file, d.content);
    for (const r of working.resources) current.set(`${r.kind}/${r.name}`, r.content);
  }
  const entries: BundleImportEntry[] = [];
  const incoming = new Set<string>();
  const add = (path: string, area: BundleImportEntry['area'], content: Buffer): void => {
    incoming.add(path);
    const before = current.get(path);
    entries.push({ path, area, change: before === undefined ? 'create' : before.equals(content) ? 'unchanged' : 'overwrite', bytes: content.length });
  };
  for (const d of files.definitions) add(d.file, 'definition', d.content);
  for (const r of files.resources) add(`${r.kind}/${r.name}`, r.kind, r.content);
  for (const [path, content] of current) {
    if (incoming.has(path)) continue;
    const slash = path.indexOf('/');
    entries.push({ path, area: slash === -1 ? 'definition' : (path.slice(0, slash) as 'env' | 'template'), change: 'remove', bytes: content.length });
  }
  return { integration, exists, entries };
}
