import { badRequest } from '../http/api-error.ts';
import { resourceKinds, type ResourceKind } from '../store/resource-store.ts';
import type { IntegrationFiles } from '../store/integration-store.ts';
import { checkDefinitionFile, isDefinitionName } from './names.ts';
import { readTar, writeTar } from './tar.ts';

/**
 * An integration as one tar laid out like its folder in a workspace:
 *
 *   orders.yaml                 definitions at the root
 *   env/config/prod.env         env resources under env/, by name
 *   template/emails/welcome.txt template resources under template/, by name
 *
 * Resources are written in declared order, and an upload takes the archive's order as the
 * declared order, so a round trip keeps it; every file's bytes are kept as they are.
 */
export function bundleOf(files: IntegrationFiles, mtimeMs: number): Promise<Buffer> {
  return writeTar([
    ...files.definitions.map((d) => ({ path: d.file, content: d.content, mtimeMs })),
    ...files.resources.map((r) => ({ path: `${r.kind}/${r.name}`, content: r.content, mtimeMs })),
  ]);
}

/** Reads an uploaded bundle; a 400 names the first entry that has no place in an integration. */
export async function filesOfBundle(archive: Buffer): Promise<IntegrationFiles> {
  const files: IntegrationFiles = { definitions: [], resources: [] };
  const seen = new Set<string>();
  for (const entry of await readTar(archive)) {
    if (seen.has(entry.path)) throw badRequest('invalid_bundle', `the bundle holds "${entry.path}" twice`);
    seen.add(entry.path);
    const slash = entry.path.indexOf('/');
    if (slash === -1) {
      if (!isDefinitionName(entry.path)) {
        throw badRequest('invalid_bundle', `the bundle entry "${entry.path}" has no place in an integration: root-level files are definitions (*.yaml, *.yml); resources go under env/ or template/`);
      }
      files.definitions.push({ file: checkDefinitionFile(entry.path), content: entry.content });
      continue;
    }
    const kind = entry.path.slice(0, slash) as ResourceKind;
    if (!resourceKinds.includes(kind)) {
      throw badRequest('invalid_bundle', `the bundle entry "${entry.path}" has no place in an integration: resources go under env/ or template/, definitions at the root`);
    }
    // Names are checked (with the rule each breaks) when the working copy is replaced.
    files.resources.push({ kind, name: entry.path.slice(slash + 1), content: entry.content });
  }
  return files;
}
