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

/** Deployment records; the rules a deploy is checked against live in management/deployments.ts. */
export interface DeploymentStore {
  list(): Promise<Deployment[]>;
  /** Refuses (StoreRefusal missing-deployment) when there is none. */
  get(id: string): Promise<Deployment>;
  /** Stores (or replaces) the deployment and its bindings in one transaction; true when it is new. */
  save(id: string, record: { integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }, actor: string): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Deployments that bind the secret, with the variable each binds it to. */
  usersOfSecret(name: string): Promise<Array<{ deployment: string; variable: string }>>;
}

export interface DeploymentRow {
  id: string;
  integration: string;
  tag: string;
  snapshot: string;
  created_at: number;
  created_by: string;
}

export interface BindingRow {
  variable: string;
  literal: string | null;
  secret: string | null;
}

/** A deployment from its row and its binding rows (ordered by variable). */
export function deploymentOf(row: DeploymentRow, bindingRows: BindingRow[]): Deployment {
  const bindings: Record<string, Binding> = {};
  for (const b of bindingRows) bindings[b.variable] = b.secret !== null ? { secret: b.secret } : { value: b.literal ?? '' };
  return { id: row.id, integration: row.integration, tag: row.tag, snapshotId: row.snapshot, createdAt: row.created_at, createdBy: row.created_by, bindings };
}
