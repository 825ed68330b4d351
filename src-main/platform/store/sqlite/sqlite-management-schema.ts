/**
 * Migration 2: integrations with their working copy (definitions and resources), version tags
 * with their frozen copies, cluster secret names and deployments. Secret values are not here:
 * they live in the encrypted `flow-secrets` object beside the database. Foreign keys are off in
 * this database, so the stores delete dependent rows themselves.
 */
export const managementMigration = `
  CREATE TABLE integrations (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL
  ) WITHOUT ROWID;

  -- Root-level *.yaml / *.yml files of an integration: its flow definition.
  CREATE TABLE integration_definitions (
    integration TEXT NOT NULL,
    file TEXT NOT NULL,
    content BLOB NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL,
    PRIMARY KEY (integration, file)
  ) WITHOUT ROWID;

  -- The working copy of an integration's resources; position is the declared order (env files
  -- are folded in it).
  CREATE TABLE integration_resources (
    id TEXT PRIMARY KEY,
    integration TEXT NOT NULL,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    content BLOB NOT NULL,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL,
    UNIQUE (integration, name)
  );
  CREATE INDEX integration_resources_order ON integration_resources (integration, position);

  -- A version tag and its frozen copy; the snapshot id is what a deployed runtime carries.
  CREATE TABLE snapshots (
    id TEXT PRIMARY KEY,
    integration TEXT NOT NULL,
    tag TEXT NOT NULL,
    description TEXT,
    variables TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (integration, tag)
  ) WITHOUT ROWID;
  CREATE TABLE snapshot_definitions (
    snapshot TEXT NOT NULL,
    file TEXT NOT NULL,
    content BLOB NOT NULL,
    PRIMARY KEY (snapshot, file)
  ) WITHOUT ROWID;
  CREATE TABLE snapshot_resources (
    snapshot TEXT NOT NULL,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    content BLOB NOT NULL,
    PRIMARY KEY (snapshot, name)
  ) WITHOUT ROWID;

  -- Names and timestamps only; values are in the flow-secrets object.
  CREATE TABLE cluster_secrets (
    name TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE deployments (
    id TEXT PRIMARY KEY,
    integration TEXT NOT NULL,
    tag TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL
  ) WITHOUT ROWID;
  -- One row per bound variable: a literal value, or the name of a cluster secret (never its value).
  CREATE TABLE deployment_bindings (
    deployment TEXT NOT NULL,
    variable TEXT NOT NULL,
    literal TEXT,
    secret TEXT,
    PRIMARY KEY (deployment, variable)
  ) WITHOUT ROWID;
  CREATE INDEX deployment_bindings_secret ON deployment_bindings (secret) WHERE secret IS NOT NULL;
`;
