import { badRequest } from '../http/api-error.ts';
import type { Binding, Deployment, DeploymentStore } from '../store/deployment-store.ts';
import type { Snapshot } from '../store/snapshot-store.ts';
import type { ClusterSecretStore } from './cluster-secrets.ts';
import { answered } from './management-errors.ts';
import type { Tags } from './tags.ts';

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

/** Variables the orchestrator sets in every pod (spec 2 §2.1); a deployment may not bind them. */
const ORCHESTRATOR_MANAGED: ReadonlySet<string> = new Set(['HTTP_PORT', 'HTTP_HOST']);

/**
 * Deployments: which tag runs with which bindings, over either store. Deploying validates up
 * front: every binding names a declared variable, every secret binding names an existing secret,
 * secret variables are bound to secrets, and every required variable has a non-empty binding or a
 * frozen env resource that sets it (a default does not count, spec 2 §4.4).
 */
export class Deployments {
  constructor(
    private readonly records: DeploymentStore,
    private readonly snapshots: Tags,
    private readonly secrets: ClusterSecretStore,
  ) {}

  async list(): Promise<Deployment[]> {
    return this.records.list();
  }

  async get(id: string): Promise<Deployment> {
    return answered(this.records.get(id));
  }

  /** Deploys (or rolls out) a tag under `id`; true when the deployment is new. */
  async deploy(id: string, request: DeployRequest, actor: string): Promise<boolean> {
    const snapshot = await this.snapshots.getTag(request.integration, request.tag);
    await this.check(snapshot, request.bindings);
    return this.records.save(id, { integration: request.integration, tag: request.tag, snapshotId: snapshot.id, bindings: request.bindings }, actor);
  }

  async delete(id: string): Promise<void> {
    await answered(this.records.delete(id));
  }

  /** Deployments that bind the secret, with the variable each binds it to. */
  async usersOfSecret(name: string): Promise<Array<{ deployment: string; variable: string }>> {
    return this.records.usersOfSecret(name);
  }

  /**
   * The environment a runtime of this deployment starts with. A secret deleted since the deploy
   * fails the start here, as a pod referencing a missing secret key fails to start.
   */
  async containerEnv(id: string): Promise<ContainerEnv> {
    const deployment = await this.get(id);
    const snapshot = await this.snapshots.get(deployment.snapshotId);
    const env: Record<string, string> = {};
    const secretVariables: string[] = [];
    for (const [variable, b] of Object.entries(deployment.bindings)) {
      if ('secret' in b) {
        const value = await this.secrets.reveal(b.secret);
        if (value === undefined) {
          throw new Error(`deployment "${id}" binds ${variable} to the secret "${b.secret}", which no longer exists; create it again or roll out with another binding`);
        }
        env[variable] = value;
        secretVariables.push(variable);
      } else if (b.value !== '') env[variable] = b.value;
    }
    return { snapshot, env, secretVariables };
  }

  private async check(snapshot: Snapshot, bindings: Record<string, Binding>): Promise<void> {
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
        if (!(await this.secrets.get(b.secret))) throw badRequest('unknown_secret', `bindings.${name}: there is no cluster secret "${b.secret}"; create it with PUT /secrets/${b.secret} first`);
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
}
