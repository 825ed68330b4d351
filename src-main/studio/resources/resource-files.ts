import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ResourceEntry, ResourceKind, ResourceNameCheck } from '../../../shared/resource-types.ts';
import { checkResourceName } from '../../platform/index.ts';
import { StudioError } from '../studio-error.ts';
import { printable } from '../workspace-containment.ts';
import type { Workspace } from '../workspace.ts';

export const RESOURCE_KINDS: readonly ResourceKind[] = ['env', 'template'];

/** Resource files are text the editor shows; a bigger one is refused rather than half shown. */
const MAX_RESOURCE_BYTES = 4 * 1024 * 1024;

/**
 * The resources of an integration in the workspace: `env/<name>` and `template/<name>` beside
 * its definitions, the layout the runtime's `run`, bundles and the platform's seed all share.
 * The files are the working copy; names follow the platform's rules (spec 2 §2.11), checked with
 * the platform's own code so the message a person sees while typing is the server's.
 */
export class ResourceFiles {
  constructor(private readonly workspace: Workspace) {}

  /** Env resources first, each kind in path order (the declared order of a folder). */
  list(integration: string): ResourceEntry[] {
    const out: ResourceEntry[] = [];
    for (const kind of RESOURCE_KINDS) {
      for (const name of namesIn(this.workspace.pathIn(integration, kind))) {
        const st = statSync(this.workspace.pathIn(integration, kind, ...name.split('/')));
        out.push({ kind, name, file: `${kind}/${name}`, bytes: st.size, updatedAt: Math.round(st.mtimeMs) });
      }
    }
    return out;
  }

  read(integration: string, kind: ResourceKind, name: string): string {
    const path = this.pathOf(integration, kind, name);
    if (!existsSync(path)) throw StudioError.notFound(`integration "${integration}" has no ${kind} resource "${name}"`);
    if (statSync(path).size > MAX_RESOURCE_BYTES) throw new StudioError(`${kind}/${name} is over ${MAX_RESOURCE_BYTES / 1024 / 1024} MiB; edit it outside the studio`);
    return readFileSync(path, 'utf8');
  }

  /** The platform's verdict plus uniqueness within the integration (any kind). */
  check(integration: string, kind: ResourceKind, name: string, except?: string): ResourceNameCheck {
    checkKind(kind);
    const rules = nameOnly(name);
    if (!rules.ok) return rules;
    for (const k of RESOURCE_KINDS) {
      if (name === except) continue;
      const path = this.workspace.pathIn(integration, k, ...name.split('/'));
      if (!existsSync(path)) continue;
      if (statSync(path).isDirectory()) {
        return { ok: false, code: 'resource_name_is_folder', message: `"${name}" is a folder of ${k} resources in "${integration}"; name a file inside it, e.g. "${name}/welcome.txt"` };
      }
      return {
        ok: false,
        code: 'resource_name_duplicate',
        message: `integration "${integration}" already has a resource named "${name}" (${k}); names are unique per integration: edit that one or choose another name`,
      };
    }
    // A name below an existing file (`a.env/x` when `a.env` is a file) cannot be created on disk.
    const segments = name.split('/');
    for (let i = 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      for (const k of RESOURCE_KINDS) {
        const path = this.workspace.pathIn(integration, k, ...segments.slice(0, i));
        if (existsSync(path) && statSync(path).isFile()) {
          return { ok: false, code: 'resource_name_under_file', message: `"${prefix}" is already a ${k} resource, so it cannot also be a folder; choose another name` };
        }
      }
    }
    return { ok: true };
  }

  create(integration: string, kind: ResourceKind, name: string, content: string): ResourceEntry {
    this.refuse(this.check(integration, kind, name));
    this.workspace.writeFile(integration, `${kind}/${name}`, content);
    return this.entry(integration, kind, name);
  }

  save(integration: string, kind: ResourceKind, name: string, content: string): ResourceEntry {
    this.read(integration, kind, name);
    this.workspace.writeFile(integration, `${kind}/${name}`, content);
    return this.entry(integration, kind, name);
  }

  rename(integration: string, kind: ResourceKind, from: string, to: string): ResourceEntry {
    const source = this.pathOf(integration, kind, from);
    if (!existsSync(source)) throw StudioError.notFound(`integration "${integration}" has no ${kind} resource "${from}"`);
    if (from === to) return this.entry(integration, kind, to);
    this.refuse(this.check(integration, kind, to, from));
    const target = this.pathOf(integration, kind, to);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(source, target);
    this.pruneEmptyFolders(integration, kind, dirname(source));
    return this.entry(integration, kind, to);
  }

  delete(integration: string, kind: ResourceKind, name: string): void {
    const path = this.pathOf(integration, kind, name);
    if (!existsSync(path) || !statSync(path).isFile()) throw StudioError.notFound(`integration "${integration}" has no ${kind} resource "${name}"`);
    unlinkSync(path);
    this.pruneEmptyFolders(integration, kind, dirname(path));
  }

  private entry(integration: string, kind: ResourceKind, name: string): ResourceEntry {
    const st = statSync(this.pathOf(integration, kind, name));
    return { kind, name, file: `${kind}/${name}`, bytes: st.size, updatedAt: Math.round(st.mtimeMs) };
  }

  private pathOf(integration: string, kind: ResourceKind, name: string): string {
    checkKind(kind);
    this.refuse(nameOnly(name));
    return this.workspace.pathIn(integration, kind, ...name.split('/'));
  }

  private refuse(check: ResourceNameCheck): void {
    if (!check.ok) throw new StudioError(check.message);
  }

  /** Folders left empty by a rename or delete go too, up to the kind folder (kept). */
  private pruneEmptyFolders(integration: string, kind: ResourceKind, from: string): void {
    const stop = join(this.workspace.dirOf(integration), kind);
    for (let d = from; d.startsWith(stop + sep); d = dirname(d)) {
      if (readdirSync(d).length > 0) return;
      rmdirSync(d);
    }
  }
}

function nameOnly(name: string): ResourceNameCheck {
  if (typeof name !== 'string') return { ok: false, code: 'invalid_field', message: 'a resource name is text, e.g. "emails/welcome.txt"' };
  // Beyond the platform's rules: a name that turns into `..` or `/` once something decodes it.
  if (/%(2e|2f|5c|00)/i.test(name)) {
    return { ok: false, code: 'resource_name_encoded', message: `the resource name "${printable(name)}" contains a percent-encoded dot, slash, backslash or NUL; write the name as it is, not URL-encoded` };
  }
  if (name.split('/').some((s) => Buffer.byteLength(s) > 255)) {
    return { ok: false, code: 'resource_name_too_long', message: `the resource name "${printable(name)}" has a folder or file name longer than 255 bytes, more than a file system takes` };
  }
  try {
    checkResourceName(name);
    return { ok: true };
  } catch (err) {
    const e = err as { code?: string; message: string };
    return { ok: false, code: e.code ?? 'invalid_name', message: e.message };
  }
}

function checkKind(kind: string): void {
  if (!RESOURCE_KINDS.includes(kind as ResourceKind)) throw new StudioError(`a resource kind is "env" or "template", not "${String(kind).slice(0, 40)}"`);
}

/** Resource names under a kind folder, `/`-separated, in path order; hidden files are skipped. */
export function namesIn(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
      .filter((n) => !n.split('/').some((s) => s.startsWith('.')))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
