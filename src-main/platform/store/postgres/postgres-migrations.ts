import type pg from 'pg';

/**
 * The platform's PostgreSQL schema, one migration per entry; `flow_schema_migrations` records
 * which ran. Append new migrations; never edit one that has shipped. Every replica runs
 * `migrate` at start; an advisory lock makes the others wait while one migrates.
 *
 * Times are integer milliseconds from the database clock (`flow_now_ms()`), never from a
 * replica's: leases, visibility deadlines and subscription idleness are decided by one clock.
 */
export const postgresMigrations: string[] = [
  `
  CREATE FUNCTION flow_now_ms() RETURNS bigint LANGUAGE sql VOLATILE
    AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

  -- Versions of versioned objects and fencing tokens: sequences only move forward, across
  -- deletes, restarts and replicas, so a version or a token is never issued twice.
  CREATE SEQUENCE object_version;
  CREATE SEQUENCE lease_fencing;

  CREATE TABLE kv_entries (
    namespace text NOT NULL,
    key text NOT NULL,
    value bytea NOT NULL,          -- AES-256-GCM sealed in *_secrets namespaces
    version bigint NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (namespace, key)
  );
  -- *_volatile namespaces: cheap to lose, so not written to the WAL (emptied after a crash),
  -- yet shared by every replica.
  CREATE UNLOGGED TABLE kv_volatile (
    namespace text NOT NULL,
    key text NOT NULL,
    value bytea NOT NULL,
    version bigint NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (namespace, key)
  );

  CREATE TABLE resources (
    kind text NOT NULL,
    name text NOT NULL,
    content bytea NOT NULL,
    updated_at bigint NOT NULL,
    updated_by text NOT NULL,
    PRIMARY KEY (kind, name)
  );

  CREATE TABLE leases (
    kind text NOT NULL,
    name text NOT NULL,
    lease_id text NOT NULL UNIQUE,
    holder text NOT NULL,
    fencing bigint NOT NULL,
    ttl_ms bigint NOT NULL,
    granted_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (kind, name)
  );

  -- One row per message per consumer group; grp '' holds messages published before any group existed.
  CREATE TABLE queue_items (
    id bigserial PRIMARY KEY,
    message_id text NOT NULL,
    subject text NOT NULL,
    grp text NOT NULL,
    body text NOT NULL,
    headers text,
    reply_to text,
    published_at bigint NOT NULL,
    visible_at bigint NOT NULL,
    delivery_count integer NOT NULL DEFAULT 0,
    receipt text
  );
  CREATE INDEX queue_items_ready ON queue_items (subject, grp, visible_at, id);
  CREATE INDEX queue_items_reply ON queue_items (reply_to) WHERE reply_to IS NOT NULL;
  CREATE TABLE queue_groups (
    subject text NOT NULL,
    grp text NOT NULL,
    created_at bigint NOT NULL,
    last_receive_at bigint NOT NULL,
    PRIMARY KEY (subject, grp)
  );
  -- Requests waiting for a reply on some replica, and replies posted to another replica.
  CREATE TABLE queue_requests (reply_to text PRIMARY KEY, subject text NOT NULL, expires_at bigint NOT NULL);
  CREATE TABLE queue_replies (reply_to text PRIMARY KEY, body text NOT NULL, headers text);

  -- A topic stream's last sequence number. Publishing bumps it under the row's lock, held to
  -- commit, so sequence numbers of one stream commit in order (see postgres-topics.ts).
  CREATE TABLE topic_streams (plane text NOT NULL, subject text NOT NULL, last_seq bigint NOT NULL, PRIMARY KEY (plane, subject));
  CREATE TABLE topic_messages (
    plane text NOT NULL,
    subject text NOT NULL,
    seq bigint NOT NULL,
    body text NOT NULL,
    headers text,
    published_at bigint NOT NULL,
    PRIMARY KEY (plane, subject, seq)
  );
  CREATE TABLE topic_subscriptions (
    id text PRIMARY KEY,
    plane text NOT NULL,
    subject text NOT NULL,
    cursor bigint NOT NULL,
    delivered bigint NOT NULL,
    delivered_until bigint NOT NULL,
    created_at bigint NOT NULL,
    last_active_at bigint NOT NULL
  );
  CREATE INDEX topic_subscriptions_stream ON topic_subscriptions (plane, subject, cursor);

  CREATE TABLE agent_threads (
    agent_id text NOT NULL,
    thread_key text NOT NULL,
    user_id text,
    title text,
    version bigint NOT NULL,
    working bytea,
    iteration integer NOT NULL DEFAULT 0,
    tokens integer NOT NULL DEFAULT 0,
    turn_count integer NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (agent_id, thread_key)
  );
  CREATE INDEX agent_threads_recent ON agent_threads (agent_id, updated_at DESC, thread_key);
  CREATE TABLE agent_turns (
    id bigserial PRIMARY KEY,
    agent_id text NOT NULL,
    thread_key text NOT NULL,
    seq integer NOT NULL,
    created_at bigint NOT NULL,
    turn text NOT NULL,
    search tsvector NOT NULL,
    UNIQUE (agent_id, thread_key, seq)
  );
  CREATE INDEX agent_turns_search ON agent_turns USING gin (search);
  CREATE TABLE agent_memories (
    id bigserial PRIMARY KEY,
    agent_id text NOT NULL,
    user_id text NOT NULL,
    name text NOT NULL,
    content text NOT NULL,
    version bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    search tsvector NOT NULL,
    UNIQUE (agent_id, user_id, name)
  );
  CREATE INDEX agent_memories_search ON agent_memories USING gin (search);

  CREATE TABLE trace_records (id bigserial PRIMARY KEY, received_at bigint NOT NULL, record text NOT NULL);
  CREATE INDEX trace_records_age ON trace_records (received_at);
  CREATE TABLE log_records (id bigserial PRIMARY KEY, received_at bigint NOT NULL, record text NOT NULL);
  CREATE INDEX log_records_age ON log_records (received_at);
  `,
  // 2: management (integrations with their working copy, version tags with their frozen copies,
  // cluster secrets, deployments), so any replica takes any management write.
  `
  CREATE TABLE integrations (
    id text PRIMARY KEY,
    created_at bigint NOT NULL,
    created_by text NOT NULL,
    updated_at bigint NOT NULL,
    updated_by text NOT NULL
  );
  -- Root-level *.yaml / *.yml files of an integration: its flow definition.
  CREATE TABLE integration_definitions (
    integration text NOT NULL,
    file text NOT NULL,
    content bytea NOT NULL,
    updated_at bigint NOT NULL,
    updated_by text NOT NULL,
    PRIMARY KEY (integration, file)
  );
  -- The working copy of an integration's resources; position is the declared order.
  CREATE TABLE integration_resources (
    id text PRIMARY KEY,
    integration text NOT NULL,
    position integer NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    content bytea NOT NULL,
    version bigint NOT NULL,
    created_at bigint NOT NULL,
    created_by text NOT NULL,
    updated_at bigint NOT NULL,
    updated_by text NOT NULL,
    UNIQUE (integration, name)
  );
  CREATE INDEX integration_resources_order ON integration_resources (integration, position);

  -- A version tag and its frozen copy; the snapshot id is what a deployed runtime carries.
  CREATE TABLE snapshots (
    id text PRIMARY KEY,
    integration text NOT NULL,
    tag text NOT NULL,
    description text,
    variables text NOT NULL,
    created_at bigint NOT NULL,
    created_by text NOT NULL,
    UNIQUE (integration, tag)
  );
  CREATE TABLE snapshot_definitions (snapshot text NOT NULL, file text NOT NULL, content bytea NOT NULL, PRIMARY KEY (snapshot, file));
  CREATE TABLE snapshot_resources (
    snapshot text NOT NULL,
    position integer NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    content bytea NOT NULL,
    PRIMARY KEY (snapshot, name)
  );

  -- Names and timestamps of cluster secrets; their values are in cluster_secret_values (sealed
  -- with the platform's secret key) or, with FLOW_CLUSTER_SECRETS=kubernetes, in the Secret flow-secrets.
  CREATE TABLE cluster_secrets (name text PRIMARY KEY, created_at bigint NOT NULL, updated_at bigint NOT NULL, updated_by text NOT NULL);
  CREATE TABLE cluster_secret_values (name text PRIMARY KEY, sealed bytea NOT NULL);

  CREATE TABLE deployments (
    id text PRIMARY KEY,
    integration text NOT NULL,
    tag text NOT NULL,
    snapshot text NOT NULL,
    created_at bigint NOT NULL,
    created_by text NOT NULL
  );
  -- One row per bound variable: a literal value, or the name of a cluster secret (never its value).
  CREATE TABLE deployment_bindings (
    deployment text NOT NULL,
    variable text NOT NULL,
    literal text,
    secret text,
    PRIMARY KEY (deployment, variable)
  );
  CREATE INDEX deployment_bindings_secret ON deployment_bindings (secret) WHERE secret IS NOT NULL;
  `,
];

/** Any constant: the advisory lock key every replica takes while migrating. */
const MIGRATION_LOCK = 7_480_220_001;

/** Brings the schema up to date; returns the schema version. Refuses a database newer than this server. */
export async function migrate(client: pg.ClientBase): Promise<number> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS flow_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM flow_schema_migrations');
    const current = rows[0].v ?? 0;
    if (current > postgresMigrations.length) {
      throw new Error(
        `the platform database is at schema ${current}, newer than this server knows (${postgresMigrations.length}); use a newer flow-studio`,
      );
    }
    for (let v = current; v < postgresMigrations.length; v++) {
      await client.query('BEGIN');
      try {
        await client.query(postgresMigrations[v]);
        await client.query('INSERT INTO flow_schema_migrations (version) VALUES ($1)', [v + 1]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${v + 1} of the platform's PostgreSQL schema failed: ${(err as Error).message}`);
      }
    }
    return postgresMigrations.length;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
