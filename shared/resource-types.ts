/**
 * What the Resources and Secrets panels exchange with the backend: resource files, cluster
 * secrets (names only; no type here has a place for a secret's value), the environment a run or
 * deployment gets with the source of every value, version tags, their diff against the working
 * copy, local deployments and bundles. Plain data only: it crosses IPC and HTTP as JSON.
 */
import type { RouteInfo } from './studio-api.ts';

export type ResourceKind = 'env' | 'template';

/** A resource of an integration, a file under its `env/` or `template/` folder. */
export interface ResourceEntry {
  kind: ResourceKind;
  /** The name a definition references, e.g. `emails/welcome.txt`. */
  name: string;
  /** Where it lives in the integration folder, e.g. `template/emails/welcome.txt`. */
  file: string;
  bytes: number;
  /** Epoch ms of the last write. */
  updatedAt: number;
}

/** The verdict on a resource name as it is typed, with the platform's own message. */
export type ResourceNameCheck = { ok: true } | { ok: false; code: string; message: string };

export type TemplatePreview = { ok: true; text: string } | { ok: false; error: string };

/* ---------- cluster secrets ---------- */

/** A cluster secret as the studio may show it: never its value. */
export interface SecretSummary {
  name: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
  /** Deployments that bind it, with the variable each binds it to. */
  usedBy: Array<{ deployment: string; variable: string }>;
  /** Integrations whose studio runs bind it (Resources → Environment), with the variable. */
  studioRuns: StudioRunUse[];
}

export interface StudioRunUse {
  integration: string;
  variable: string;
}

export interface DeleteSecretResult {
  deleted: string;
  /** The bindings a forced delete broke: those deployments will not start again. */
  brokenDeployments: Array<{ deployment: string; variable: string }>;
  /** The studio run bindings a forced delete broke: those integrations will not start until rebound. */
  brokenStudioRuns: StudioRunUse[];
}

/**
 * How the key of the secret store is kept, for the Secrets panel's banner:
 * `os-keyring` (Electron safeStorage with a real keyring), `key-file` (a 0600 file: web mode and
 * headless), `weak-fallback` (safeStorage's basic_text backend, opted in), `refused` (basic_text
 * without the opt-in: secrets cannot be stored), `unavailable` (no OS encryption at all).
 */
export interface SecretStoreStatus {
  protection: 'os-keyring' | 'key-file' | 'weak-fallback' | 'refused' | 'unavailable';
  /** e.g. `Electron safeStorage (gnome_libsecret)` or `a 0600 key file (flow-secrets.key)`. */
  description: string;
  /** What to tell the user; absent when the key is protected by the OS. */
  banner?: string;
  /** True when the user may accept the weak fallback (Electron's basic_text backend). */
  canOptIn: boolean;
}

/* ---------- bindings and the environment view ---------- */

/** A declared variable bound to a literal value or to a cluster secret by name (spec 2 §4.3). */
export type Binding = { value: string } | { secret: string };

/** Which run's environment to show. */
export type EnvironmentTarget =
  /** The working copy as a studio run gets it. */
  | { kind: 'working-copy'; integration: string }
  | { kind: 'deployment'; deployment: string }
  /** A tag with bindings being chosen in the deploy dialog. */
  | { kind: 'tag'; integration: string; tag: string; bindings: Record<string, Binding> };

/**
 * Where a value can come from, strongest first (spec 2 §4.4): the container environment
 * (`binding`, `secret`, and for a deployment the `managed` HTTP_PORT/HTTP_HOST; for a studio run
 * the studio's `process` environment), then `env-resource` files, then the declared `default`.
 */
export type ValueSourceKind = 'binding' | 'secret' | 'managed' | 'process' | 'env-resource' | 'default';

export interface ValueSource {
  kind: ValueSourceKind;
  /** The value, when it may be shown; absent for secret references and secret variables. */
  value?: string;
  /** True when there is a value that is not shown (a secret variable). */
  masked?: boolean;
  /** For `secret`: the cluster secret's name, and whether it exists. */
  secret?: string;
  secretExists?: boolean;
  /** For `env-resource`: the resource name, its file in the integration folder and the line. */
  resource?: string;
  file?: string;
  line?: number;
  /** False when this source gives nothing (an empty binding injects nothing). */
  gives: boolean;
  /** The source the variable's value comes from. */
  wins: boolean;
}

export interface EnvironmentVariable {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  /** The definition file that declares it, and the line of the declaration when known. */
  declaredIn: string;
  line?: number;
  /** Every source that has something for it, strongest first; the winner has `wins`. */
  sources: ValueSource[];
  /** The winning kind, or `missing` when nothing gives a value. */
  effective: ValueSourceKind | 'missing';
  /** What stops the run or deploy, e.g. a required variable nothing binds. */
  problem?: string;
}

export interface EnvironmentView {
  target: EnvironmentTarget;
  /** Env resources folded in, in declared order (a later one overrides an earlier one). */
  envResources: string[];
  variables: EnvironmentVariable[];
  /** Problems that are not one variable's, e.g. an env resource that is not a .env file. */
  problems: string[];
}

/* ---------- tags, diff, deployments ---------- */

export interface TagVariable {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  declaredIn: string;
  /** Frozen env resources that give it a non-empty value: it needs no binding. */
  satisfiedBy: string[];
}

export interface TagSummary {
  tag: string;
  snapshotId: string;
  description?: string;
  createdAt: number;
  createdBy: string;
  definitions: string[];
  resources: Array<{ kind: ResourceKind; name: string }>;
  variables: TagVariable[];
}

export interface DiffLine {
  op: 'same' | 'add' | 'remove';
  text: string;
}

export interface DiffHunk {
  /** 1-based first line of the hunk in the tag's file and in the working copy's. */
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

export interface FileDiff {
  /** Path in the integration folder: `orders.yaml`, `env/local.env`, `template/reply.txt`. */
  path: string;
  area: 'definition' | ResourceKind;
  /** `added`: only in the working copy; `removed`: only in the tag. */
  status: 'added' | 'removed' | 'changed' | 'unchanged';
  hunks: DiffHunk[];
  /** Set when the lines were not compared (binary content or very large files). */
  note?: string;
}

export interface TagDiff {
  integration: string;
  tag: string;
  snapshotId: string;
  files: FileDiff[];
}

export type DeploymentStatus = 'running' | 'starting' | 'stopped' | 'failed';

export interface DeploymentSummary {
  id: string;
  integration: string;
  tag: string;
  snapshotId: string;
  createdAt: number;
  createdBy: string;
  /** Secret bindings carry the secret's name only. */
  bindings: Record<string, Binding>;
  status: DeploymentStatus;
  reason?: string;
  routes: RouteInfo[];
}

export interface DeployInput {
  /** The deployment id, e.g. `orders-api-v1`; deploying under an existing id rolls it out. */
  deployment: string;
  integration: string;
  tag: string;
  bindings: Record<string, Binding>;
}

/* ---------- bundles ---------- */

export interface BundleFile {
  fileName: string;
  /** The tar, base64: calls carry JSON. */
  base64: string;
  bytes: number;
}

export interface BundleImportEntry {
  path: string;
  area: 'definition' | ResourceKind;
  /** `remove`: in the integration, not in the bundle (an import replaces the working copy). */
  change: 'create' | 'overwrite' | 'unchanged' | 'remove';
  bytes: number;
}

export interface BundleImportPreview {
  integration: string;
  /** False when the import creates the integration. */
  exists: boolean;
  entries: BundleImportEntry[];
}
