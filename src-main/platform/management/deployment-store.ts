import { badRequest, notFound } from '../http/api-error.ts';
import type { Db } from '../store/database.ts';
import type { ClusterSecretStore } from './cluster-secret-store.ts';
import type { Snapshot, SnapshotStore } from './snapshot-store.ts';

/** A declared variable bound to a literal value or to a cluster secret by name (spec 2 §4.3). */
export type Binding = { value: string } | { secret: string };

export interface Deployment {
  id: string;
  integration: string;
  tag: string;
  snapshotId: string;
  createdAt: number;
  createdBy: string;
  /** Secret bindings hold the secret's name, never its value. An empty literal injects nothing. */
  bindings: Record<string, Binding>;
}

export interface DeployRequest {
  integration: string;
  tag: string;
  bindings: Record<string, Binding>;
}

/** What a runtime of the deployment starts with: the container environment, resolved. */
export interface ContainerEnv {
  snapshot: Snapshot;
  /** Literal bindings and resolved secret references; empty bindings are absent. */
  env: Record<string, string>;
  /** Names of the variables whose value came from a secret, so the runtime masks them. */
  secretVariables: string[];
}

interface DeploymentRow {
  id: string;
  integration: string;
  tag: string;
  snapshot: string;
  created_at: number;
  created_by: string;
}

/** Variables the orchestrator sets in every pod (spec 2 §2.1); a deployment may not bind them. */
const ORCHESTRATOR_MANAGED: ReadonlySet<string> = new Set(['HTTP_PORT', 'HTTP_HOST']);

/**
 * Deployment records: which tag runs with which bindings. Deploying validates up front: every
 * binding names a declared variable, every secret binding names an existing secret, secret
 * variables are bound to secrets, and every required variable has a non-empty binding or a
 * frozen env resource that sets it (a default does not count, spec 2 §4.4).
 */
export class DeploymentStore {
  constructor(
    private readonly db: Db,
    private readonly snapshots: SnapshotStore,
    private readonly secrets: ClusterSecretStore,
  ) {}

  list(): Deployment[] {
    return (this.db.prepare('SELECT * FROM deployments ORDER BY id').all() as DeploymentRow[]).map((r) => this.withBindings(r));
  }

  get(id: string): Deployment {
    const row = this.db.prepare('SELECT * FROM deployments WHERE id = ?').get(id) as DeploymentRow | undefined;
    if (!row) throw notFound('deployment_not_found', `no deployment "${id}"`);
    return this.withBindings(row);
  }

  /** Deploys (or rolls out) a tag under `id`; true when the deployment is new. */
  deploy(id: string, request: DeployRequest, actor: string): boolean {
    const snapshot = this.snapshots.getTag(request.integration, request.tag);
    this.check(snapshot, request.bindings);
    return this.db.transaction(() => {
      const existed = this.db.prepare('SELECT 1 FROM deployments WHERE id = ?').get(id) !== undefined;
      this.db
        .prepare(
          `INSERT INTO deployments (id, integration, tag, snapshot, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET integration = excluded.integration, tag = excluded.tag, snapshot = excluded.snapshot,
             created_at = excluded.created_at, created_by = excluded.created_by`,
        )
        .run(id, request.integration, request.tag, snapshot.id, Date.now(), actor);
      this.db.prepare('DELETE FROM deployment_bindings WHERE deployment = ?').run(id);
      const insert = this.db.prepare('INSERT INTO deployment_bindings (deployment, variable, literal, secret) VALUES (?, ?, ?, ?)');
      for (const [variable, b] of Object.entries(request.bindings)) {
        insert.run(id, variable, 'secret' in b ? null : b.value, 'secret' in b ? b.secret : null);
      }
      return !existed;
    })();
  }

  delete(id: string): void {
    this.get(id);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM deployment_bindings WHERE deployment = ?').run(id);
      this.db.prepare('DELETE FROM deployments WHERE id = ?').run(id);
    })();
  }

  /** Deployments that bind the secret, with the variable each binds it to. */
  usersOfSecret(name: string): Array<{ deployment: string; variable: string }> {
    return this.db.prepare('SELECT deployment, variable FROM deployment_bindings WHERE secret = ? ORDER BY deployment, variable').all(name) as Array<{
      deployment: string;
      variable: string;
    }>;
  }

  /**
   * The environment a runtime of this deployment starts with. A secret deleted since the deploy
   * fails the start here, as a pod referencing a missing secret key fails to start.
   */
  containerEnv(id: string): ContainerEnv {
    const deployment = this.get(id);
    const snapshot = this.snapshots.get(deployment.snapshotId);
    const env: Record<string, string> = {};
    const secretVariables: string[] = [];
    for (const [variable, b] of Object.entries(deployment.bindings)) {
      if ('secret' in b) {
        const value = this.secrets.reveal(b.secret);
        if (value === undefined) {
          throw new Error(`deployment "${id}" binds ${variable} to the secret "${b.secret}", which no longer exists; create it again or roll out with another binding`);
        }
        env[variable] = value;
        secretVariables.push(variable);
      } else if (b.value !== '') env[variable] = b.value;
    }
    return { snapshot, env, secretVariables };
  }

  private check(snapshot: Snapshot, bindings: Record<string, Binding>): void {
    const declared = new Map(snapshot.variables.map((v) => [v.name, v]));
    for (const [name, b] of Object.entries(bindings)) {
      if (ORCHESTRATOR_MANAGED.has(name)) {
        throw badRequest(
          'managed_variable',
          `bindings.${name}: ${name} is managed by the orchestrator and cannot be bound at deploy time (HTTP_PORT and HTTP_HOST are set for every pod); remove the binding, or give the http connector an explicit port/host in the definition`,
        );
      }
      const variable = declared.get(name);
      if (!variable) {
        const known = [...declared.keys()];
        throw badRequest('unknown_variable', `bindings.${name}: tag "${snapshot.tag}" declares no variable ${name}; it declares ${known.length ? known.join(', ') : 'none'}`);
      }
      if ('secret' in b) {
        if (!this.secrets.get(b.secret)) throw badRequest('unknown_secret', `bindings.${name}: there is no cluster secret "${b.secret}"; create it with PUT /secrets/${b.secret} first`);
      } else if (variable.secret && b.value !== '') {
        throw badRequest('secret_needs_secret_binding', `bindings.${name}: ${name} is declared secret: true, so it is bound to a cluster secret by name ({"secret": "<name>"}), never to a literal value`);
      }
    }
    const unbound = snapshot.variables.filter((v) => {
      if (!v.required || v.satisfiedBy.length > 0 || ORCHESTRATOR_MANAGED.has(v.name)) return false;
      const b = bindings[v.name];
      return b === undefined || ('value' in b && b.value === '');
    });
    if (unbound.length > 0) {
      const names = unbound.map((v) => v.name).join(', ');
      throw badRequest(
        'required_variable_unbound',
        `tag "${snapshot.tag}" requires ${names}, which ${unbound.length === 1 ? 'has' : 'have'} no binding and no frozen env resource; bind ${unbound.length === 1 ? 'it' : 'each'} to a value or a secret (a default does not satisfy a required variable)`,
      );
    }
  }

  private withBindings(row: DeploymentRow): Deployment {
    const bindings: Record<string, Binding> = {};
    const rows = this.db.prepare('SELECT variable, literal, secret FROM deployment_bindings WHERE deployment = ? ORDER BY variable').all(row.id) as Array<{
      variable: string;
      literal: string | null;
      secret: string | null;
    }>;
    for (const b of rows) bindings[b.variable] = b.secret !== null ? { secret: b.secret } : { value: b.literal ?? '' };
    return { id: row.id, integration: row.integration, tag: row.tag, snapshotId: row.snapshot, createdAt: row.created_at, createdBy: row.created_by, bindings };
  }
}
