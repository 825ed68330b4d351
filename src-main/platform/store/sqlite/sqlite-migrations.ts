import { managementMigration } from './sqlite-management-schema.ts';

/**
 * The platform database, one migration per entry; `PRAGMA user_version` records how many ran.
 * Append new migrations; never edit one that has shipped.
 */
export const migrations: string[] = [
  `
  -- Counters that must never go backwards, e.g. the highest object version ever issued.
  CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;

  CREATE TABLE kv_entries (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value BLOB NOT NULL,      -- AES-256-GCM sealed in *_secrets namespaces
    version INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, key)
  );

  CREATE TABLE resources (
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    content BLOB NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL,
    PRIMARY KEY (kind, name)
  );

  -- Leases and leaderships: one claim per (kind, name).
  CREATE TABLE leases (
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    lease_id TEXT NOT NULL UNIQUE,
    holder TEXT NOT NULL,
    fencing INTEGER NOT NULL,
    ttl_ms INTEGER NOT NULL,
    granted_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (kind, name)
  ) WITHOUT ROWID;

  -- One row per message per consumer group; grp '' holds messages published before any group existed.
  CREATE TABLE queue_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    grp TEXT NOT NULL,
    body TEXT NOT NULL,
    headers TEXT,
    reply_to TEXT,
    published_at INTEGER NOT NULL,
    visible_at INTEGER NOT NULL,
    delivery_count INTEGER NOT NULL DEFAULT 0,
    receipt TEXT
  );
  CREATE INDEX queue_items_ready ON queue_items (subject, grp, visible_at, id);
  CREATE INDEX queue_items_reply ON queue_items (reply_to) WHERE reply_to IS NOT NULL;
  CREATE TABLE queue_groups (
    subject TEXT NOT NULL,
    grp TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (subject, grp)
  ) WITHOUT ROWID;

  CREATE TABLE topic_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plane TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    headers TEXT,
    published_at INTEGER NOT NULL
  );
  CREATE INDEX topic_messages_stream ON topic_messages (plane, subject, id);
  CREATE TABLE topic_subscriptions (
    id TEXT PRIMARY KEY,
    plane TEXT NOT NULL,
    subject TEXT NOT NULL,
    cursor INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    last_active_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX topic_subscriptions_stream ON topic_subscriptions (plane, subject, cursor);

  CREATE TABLE agent_threads (
    agent_id TEXT NOT NULL,
    thread_key TEXT NOT NULL,
    user_id TEXT,
    title TEXT,
    version INTEGER NOT NULL,
    working BLOB,
    iteration INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    turn_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (agent_id, thread_key)
  );
  CREATE INDEX agent_threads_recent ON agent_threads (agent_id, updated_at DESC, thread_key);
  CREATE INDEX agent_threads_user ON agent_threads (agent_id, user_id, updated_at DESC, thread_key);
  CREATE TABLE agent_turns (
    id INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL,
    thread_key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    turn TEXT NOT NULL,
    UNIQUE (agent_id, thread_key, seq)
  );
  CREATE TABLE agent_memories (
    id INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (agent_id, user_id, name)
  );
  -- Search indexes that keep no copy of the text (rowid = agent_turns.id / agent_memories.id).
  CREATE VIRTUAL TABLE agent_turn_text USING fts5(text, content='', contentless_delete=1);
  CREATE VIRTUAL TABLE agent_memory_text USING fts5(text, content='', contentless_delete=1);

  CREATE TABLE trace_records (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, record TEXT NOT NULL);
  CREATE INDEX trace_records_age ON trace_records (received_at);
  CREATE TABLE log_records (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, record TEXT NOT NULL);
  CREATE INDEX log_records_age ON log_records (received_at);
  `,
  managementMigration,
  `
  -- Telemetry is stored a batch to a row, as the runtime sent it: one insert (and, at the
  -- retention bound, one delete) per batch rather than per record is what keeps tracing cheap.
  -- Record ids stay stable (first_id + position), so paging by id works as before.
  CREATE TABLE trace_batches (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, first_id INTEGER NOT NULL, count INTEGER NOT NULL, bytes INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE INDEX trace_batches_age ON trace_batches (received_at);
  CREATE TABLE log_batches (id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, first_id INTEGER NOT NULL, count INTEGER NOT NULL, bytes INTEGER NOT NULL, body TEXT NOT NULL);
  CREATE INDEX log_batches_age ON log_batches (received_at);
  INSERT INTO trace_batches (id, received_at, first_id, count, bytes, body) SELECT id, received_at, id, 1, length(record) + 2, '[' || record || ']' FROM trace_records;
  INSERT INTO log_batches (id, received_at, first_id, count, bytes, body) SELECT id, received_at, id, 1, length(record) + 2, '[' || record || ']' FROM log_records;
  DROP TABLE trace_records;
  DROP TABLE log_records;
  `,
];
