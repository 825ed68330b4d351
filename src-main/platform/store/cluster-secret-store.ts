export interface SecretInfo {
  name: string;
  createdAt: number;
  updatedAt: number;
  updatedBy: string;
}

/** Names and timestamps of cluster secrets (spec 2 §2.11), never their values. */
export interface SecretNameStore {
  list(): Promise<SecretInfo[]>;
  get(name: string): Promise<SecretInfo | undefined>;
  /** Creates or touches the name; true when created. */
  record(name: string, actor: string): Promise<boolean>;
  /** False when there was no such name. */
  remove(name: string): Promise<boolean>;
}

/**
 * Where the values of cluster secrets live (spec 2 §2.11: keys of one object, `flow-secrets`):
 * a sealed file in the data directory (the embedded default), the Kubernetes Secret, or the
 * PostgreSQL store's own table. Nothing here puts a value in an error message.
 */
export interface SecretValues {
  /** Where the values live, for messages. */
  readonly description: string;
  /** Reads what must be read before the first `get` (a remote object); a no-op where nothing is cached. */
  ready(): Promise<void>;
  get(name: string): Promise<string | undefined>;
  put(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  close?(): void;
}

export interface SecretRow {
  name: string;
  created_at: number;
  updated_at: number;
  updated_by: string;
}

export const secretInfo = (r: SecretRow): SecretInfo => ({ name: r.name, createdAt: r.created_at, updatedAt: r.updated_at, updatedBy: r.updated_by });
