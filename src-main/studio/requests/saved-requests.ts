import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import type { ComposerRequest, RequestEnvironments, SavedRequest } from '../../../shared/request-types.ts';
import { StudioError } from '../studio-error.ts';
import { containedPath } from '../workspace-containment.ts';

/** The workspace folder holding saved requests and environments. */
export const REQUESTS_DIR = 'requests';
const ENVIRONMENTS_FILE = 'environments.json';

/**
 * Saved requests as plain files a person can read, diff and review in git:
 * `requests/<integration>/<name>.json`, one pretty-printed request each, keys in a fixed order.
 * Environments live beside them in `requests/environments.json`.
 */
export class SavedRequests {
  private readonly dir: string;

  constructor(private readonly workspaceRoot: string) {
    this.dir = join(workspaceRoot, REQUESTS_DIR);
  }

  /** `rel` under requests/, refused when a symbolic link takes it out of the workspace. */
  private inside(rel: string): string {
    return containedPath(this.workspaceRoot, join(this.dir, rel), `${REQUESTS_DIR}/${rel}`);
  }

  list(): SavedRequest[] {
    const out: SavedRequest[] = [];
    for (const file of jsonFiles(this.inside('.'))) {
      if (file === ENVIRONMENTS_FILE) continue;
      try {
        out.push({ file, request: normalizeRequest(JSON.parse(readFileSync(this.inside(file), 'utf8')) as ComposerRequest) });
      } catch {
        // A file someone broke by hand is skipped, not fatal; it stays on disk to be fixed.
      }
    }
    return out.sort((a, b) => a.file.localeCompare(b.file));
  }

  /** Saves under `file`, or under a name made from the request's integration and name. */
  save(request: ComposerRequest, file?: string): SavedRequest {
    const clean = normalizeRequest(request);
    if (!clean.name.trim()) throw new StudioError('give the request a name before saving it');
    const target = file ? this.pathOf(file) : this.freshPath(`${slug(clean.target?.integration ?? 'any')}/${slug(clean.name)}`);
    mkdirSync(dirname(target.abs), { recursive: true });
    writeAtomically(target.abs, JSON.stringify(clean, null, 2) + '\n');
    return { file: target.rel, request: clean };
  }

  /**
   * Where Save as… writes: the name made from the request, numbered when a saved request already
   * has it, so saving a second "GET /json" never replaces the first one's file.
   */
  private freshPath(stem: string): { rel: string; abs: string } {
    for (let n = 1; ; n++) {
      const candidate = this.pathOf(n === 1 ? `${stem}.json` : `${stem}-${n}.json`);
      if (!existsSync(candidate.abs)) return candidate;
    }
  }

  delete(file: string): void {
    const target = this.pathOf(file);
    if (!existsSync(target.abs)) throw StudioError.notFound(`no saved request "${file}"`);
    rmSync(target.abs);
  }

  environments(): RequestEnvironments {
    try {
      const parsed = JSON.parse(readFileSync(this.inside(ENVIRONMENTS_FILE), 'utf8')) as RequestEnvironments;
      const environments = Array.isArray(parsed.environments)
        ? parsed.environments.filter((e) => e && typeof e.name === 'string').map((e) => ({ name: e.name, vars: stringMap(e.vars) }))
        : [];
      return { active: typeof parsed.active === 'string' ? parsed.active : undefined, environments };
    } catch {
      return { environments: [] };
    }
  }

  saveEnvironments(envs: RequestEnvironments): RequestEnvironments {
    const clean: RequestEnvironments = {
      active: typeof envs?.active === 'string' && envs.active !== '' ? envs.active : undefined,
      environments: (Array.isArray(envs?.environments) ? envs.environments : [])
        .filter((e) => e && typeof e.name === 'string' && e.name.trim() !== '')
        .map((e) => ({ name: e.name.trim(), vars: stringMap(e.vars) })),
    };
    mkdirSync(this.dir, { recursive: true });
    writeAtomically(this.inside(ENVIRONMENTS_FILE), JSON.stringify(clean, null, 2) + '\n');
    return clean;
  }

  private pathOf(file: string): { rel: string; abs: string } {
    if (typeof file !== 'string' || !file.endsWith('.json') || file.includes('\\') || file.startsWith('/')) {
      throw new StudioError(`"${String(file)}" is not a saved request file; it is a path under ${REQUESTS_DIR}/ ending in .json`);
    }
    const rel = normalize(file);
    if (rel.split(sep).some((s) => s === '..' || s === '' || s.startsWith('.'))) throw new StudioError(`"${file}" leaves the ${REQUESTS_DIR}/ folder`);
    if (rel === ENVIRONMENTS_FILE) throw new StudioError(`${ENVIRONMENTS_FILE} holds the environments, not a request`);
    return { rel: rel.split(sep).join('/'), abs: this.inside(rel) };
  }
}

/** The request with its keys in one order and nothing else, so saved files diff cleanly. */
function normalizeRequest(r: ComposerRequest): ComposerRequest {
  const rows = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((x: { name?: unknown; value?: unknown; enabled?: unknown }) => ({
      name: String(x?.name ?? ''),
      value: String(x?.value ?? ''),
      enabled: x?.enabled !== false,
    }));
  const out: ComposerRequest = {
    name: String(r?.name ?? ''),
    method: String(r?.method ?? 'GET').toUpperCase(),
    url: String(r?.url ?? ''),
    pathParams: stringMap(r?.pathParams),
    query: rows(r?.query),
    headers: rows(r?.headers),
    body: r?.body && typeof r.body === 'object' && 'kind' in r.body ? r.body : { kind: 'none' },
    sign: r?.sign === true,
  };
  if (r?.target && typeof r.target.integration === 'string') {
    out.target = { integration: r.target.integration, flow: String(r.target.flow ?? ''), route: String(r.target.route ?? '') };
  }
  return { name: out.name, ...(out.target ? { target: out.target } : {}), method: out.method, url: out.url, pathParams: out.pathParams, query: out.query, headers: out.headers, body: out.body, sign: out.sign };
}

function stringMap(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x ?? '')]));
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'request'
  );
}

function jsonFiles(dir: string, prefix = '', depth = 0): string[] {
  if (depth > 4 || !existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...jsonFiles(join(dir, e.name), rel, depth + 1));
    else if (e.isFile() && e.name.endsWith('.json')) out.push(rel);
  }
  return out;
}

function writeAtomically(path: string, text: string): void {
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.flow-studio-tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
