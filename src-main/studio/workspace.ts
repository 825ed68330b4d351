import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { IntegrationSummary } from '../../shared/studio-api.ts';
import { definitionFilesIn, isDefinitionFile, isFlowTestFile } from '../runtime/index.ts';
import { StudioError } from './studio-error.ts';
import { containedPath, filePathProblem, printable } from './workspace-containment.ts';

/** The small file that names an integration; it is neither a definition nor a resource. */
export const MANIFEST_FILE = 'integration.json';

interface Manifest {
  name?: string;
  description?: string;
  needs?: string;
}

/**
 * The folder the studio works in: one sub-folder per integration, holding its flow definitions
 * (root-level YAML), its flow tests (root-level `*.test.yaml`), its resources (every other file)
 * and a manifest. Files on disk are the truth;
 * nothing is cached, so an edit from an outside editor is what the next read sees.
 */
export class Workspace {
  private constructor(readonly root: string) {}

  /** Opens the folder, creating it with the sample integrations on first start. */
  static open(root: string, samplesDir?: string): Workspace {
    const fresh = !existsSync(root) || readdirSync(root).length === 0;
    mkdirSync(root, { recursive: true });
    const ws = new Workspace(root);
    if (fresh && samplesDir && existsSync(samplesDir)) ws.copySamples(samplesDir);
    return ws;
  }

  list(): IntegrationSummary[] {
    return readdirSync(this.root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => this.summary(d.name))
      .filter((s) => s.definitionFiles.length > 0)
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * Flow definitions directly in the workspace folder. The studio lists none of them (an
   * integration is a sub-folder), so a folder given as the workspace that is itself one
   * integration, as `flow-studio run` takes it, would open empty without saying why.
   */
  definitionsAtRoot(): string[] {
    return definitionFilesIn(this.root).map((path) => basename(path));
  }

  summary(id: string): IntegrationSummary {
    const dir = this.dirOf(id);
    const files = listFiles(dir);
    const manifest = readManifest(dir);
    return {
      id,
      name: manifest.name ?? id,
      ...(manifest.description ? { description: manifest.description } : {}),
      ...(manifest.needs ? { needs: manifest.needs } : {}),
      definitionFiles: files.filter((f) => !f.includes('/') && isDefinitionFile(f)),
      testFiles: files.filter((f) => !f.includes('/') && isFlowTestFile(f)),
      resourceFiles: files.filter((f) => (f.includes('/') || !(isDefinitionFile(f) || isFlowTestFile(f))) && f !== MANIFEST_FILE),
    };
  }

  /** Whether the workspace has a folder for integration `id` now. */
  has(id: string): boolean {
    try {
      this.dirOf(id);
      return true;
    } catch {
      return false;
    }
  }

  /** Absolute path of an integration folder; refuses ids that would leave the workspace. */
  dirOf(id: string): string {
    if (typeof id !== 'string' || id === '' || id.startsWith('.') || id.includes('/') || id.includes('\\')) {
      throw new StudioError(`"${String(id)}" is not an integration id; use the folder name of an integration in the workspace`);
    }
    const dir = join(this.root, id);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw StudioError.notFound(`no integration "${id}" in the workspace ${this.root}`);
    }
    // A symlinked integration folder would take every call below it out of the workspace.
    return containedPath(this.root, dir, `integration "${id}"`);
  }

  /**
   * The absolute path of `segments` inside an integration, refused when its real location (any
   * symbolic link resolved) is outside the workspace. Every file access of the studio goes
   * through here or fileOf.
   */
  pathIn(id: string, ...segments: string[]): string {
    return containedPath(this.root, join(this.dirOf(id), ...segments), `"${segments.join('/')}" of integration "${id}"`);
  }

  /** Absolute definition file paths of an integration, in load order. */
  definitionPaths(id: string): string[] {
    return this.summary(id).definitionFiles.map((f) => this.pathIn(id, f));
  }

  readFile(id: string, file: string): string {
    const path = this.fileOf(id, file);
    if (!existsSync(path)) throw StudioError.notFound(`no file "${file}" in integration "${id}"`);
    return readFileSync(path, 'utf8');
  }

  /** Writes through a temporary file and a rename, so a watcher never reads half a file. */
  writeFile(id: string, file: string, text: string): void {
    if (typeof text !== 'string') throw new StudioError('file content must be text');
    const path = this.fileOf(id, file);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.flow-studio-tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  }

  private fileOf(id: string, file: string): string {
    const dir = this.dirOf(id);
    const problem = filePathProblem(file);
    if (problem) throw new StudioError(`"${printable(file)}" is not a file of integration "${id}": ${problem}`);
    return containedPath(this.root, join(dir, ...file.split('/')), `"${file}" of integration "${id}"`);
  }

  private copySamples(samplesDir: string): void {
    for (const entry of readdirSync(samplesDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const target = join(this.root, entry.name);
      cpSync(join(samplesDir, entry.name), target, { recursive: true });
      if (!existsSync(join(target, MANIFEST_FILE))) {
        writeFileSync(join(target, MANIFEST_FILE), JSON.stringify({ name: entry.name }, null, 2) + '\n');
      }
    }
  }
}

/** Every file under dir, relative with `/`, skipping hidden files and folders. */
function listFiles(dir: string, prefix = '', depth = 0): string[] {
  if (depth > 8) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(join(dir, e.name), rel, depth + 1));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

function readManifest(dir: string): Manifest {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as unknown;
    if (parsed && typeof parsed === 'object') {
      const m = parsed as Record<string, unknown>;
      return {
        name: typeof m.name === 'string' ? m.name : undefined,
        description: typeof m.description === 'string' ? m.description : undefined,
        needs: typeof m.needs === 'string' ? m.needs : undefined,
      };
    }
  } catch {
    // A missing or broken manifest only loses the display name.
  }
  return {};
}
