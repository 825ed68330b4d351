/**
 * Payloads of the Queues & Topics and Storage panels: live platform state, the recent events
 * that led to it (kept for a bounded number of minutes so a view can be scrubbed back), and the
 * runs they link to. Plain data only. Secret values never appear here.
 */
import type { FeedOutcome } from './feed-events.ts';

/** A run of a studio flow that produced or consumed something. */
export interface RunLink {
  runId: string;
  flow: string;
  integration: string;
  outcome: FeedOutcome;
  /** `producer` published or wrote it; `consumer` received it; `holder` held the lease. */
  role: 'producer' | 'consumer' | 'holder' | 'writer';
}

/** What the event history holds: its configured span and the events it really covers. */
export interface HistoryWindow {
  /** Minutes kept (configurable). */
  minutes: number;
  /** Oldest moment a view can be scrubbed back to (later than now - minutes when the event cap was reached). */
  from: number;
  to: number;
}

/** A view asked for: `at` undefined means now (live), else a moment within the history window. */
export interface HistoryQuery {
  at?: number;
  /** Most events returned (the newest up to `at`); default 300, at most 2,000. */
  limit?: number;
}

/** A value shown in a viewer: JSON pretty-printed, text, hex for binary; secrets only say they are secret. */
export type ValuePreview =
  | { kind: 'json'; text: string; bytes: number; truncated: boolean }
  | { kind: 'text'; text: string; bytes: number; truncated: boolean }
  | { kind: 'binary'; hex: string; bytes: number; truncated: boolean }
  | { kind: 'secret' };

/* ---------- Queues ---------- */

/** Counters of one consumer group on a subject; group '' holds messages published before any group received. */
export interface QueueGroupStats {
  subject: string;
  group: string;
  /** Stored now (or at the snapshot scrubbed to). */
  waiting: number;
  inFlight: number;
  /** Nacked and waiting out their delay. */
  delayed: number;
  /** Since the studio started. */
  published: number;
  delivered: number;
  redelivered: number;
  acked: number;
  nacked: number;
}

export type QueueAction = 'publish' | 'request' | 'deliver' | 'redeliver' | 'ack' | 'nack' | 'reply' | 'purge';

export interface QueueTimelineEvent {
  seq: number;
  at: number;
  action: QueueAction;
  subject: string;
  group?: string;
  messageId?: string;
  /** A publish: the consumer groups that got it (none yet: kept for the first group to receive). */
  groups?: string[];
  deliveryCount?: number;
  /** A nack's delay before the message comes again. */
  delaySeconds?: number;
  /** Why a message came again: its nack delay ended, or its ack deadline passed unsettled. */
  redelivery?: 'after nack delay' | 'after ack deadline';
  correlationId?: string;
  /** Request/reply: the address a request waits on; its reply carries the same. */
  replyTo?: string;
  /** The request a reply answers. */
  requestMessageId?: string;
  outcome?: 'replied' | 'timeout' | 'abandoned';
  /** Messages a purge removed. */
  count?: number;
  /** The panel published it. */
  fromStudio?: boolean;
  run?: RunLink;
}

export interface QueueViewQuery extends HistoryQuery {
  subject?: string;
  group?: string;
}

export interface QueueView {
  /** The moment shown. */
  at: number;
  live: boolean;
  groups: QueueGroupStats[];
  /** Events of the chosen subject (and group), oldest first, up to `at`. */
  timeline: QueueTimelineEvent[];
  history: HistoryWindow;
}

export interface WaitingMessage {
  messageId: string;
  group: string;
  state: 'waiting' | 'in flight' | 'delayed';
  publishedAt: number;
  visibleAt: number;
  deliveryCount: number;
  headers: Record<string, string>;
  body: ValuePreview;
  replyTo?: string;
}

export interface QueueMessageDetail {
  subject: string;
  messageId: string;
  correlationId?: string;
  headers?: Record<string, string>;
  /** The body as published, when history still holds it. */
  body?: ValuePreview;
  events: QueueTimelineEvent[];
  runs: RunLink[];
}

export interface PublishQueueInput {
  subject: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Only this group gets it; absent: every group of the subject. */
  consumerGroup?: string;
  /** Copies to publish (1 to 1000), for load. */
  count?: number;
}

export interface PublishResult {
  messageIds: string[];
  /** Set on the messages' `x-correlation-id` header, so the runs they start can be found. */
  correlationId: string;
  groups: string[];
}

/* ---------- Topics ---------- */

export interface TopicSubscriptionInfo {
  id: string;
  cursor: number;
  lag: number;
  inFlight: number;
  createdAt: number;
  lastActiveAt: number;
  expiresAt: number;
  receiving: boolean;
}

export interface TopicStreamStats {
  /** `platform` (system topics) or `deployment/<integration>`. */
  plane: string;
  subject: string;
  published: number;
  delivered: number;
  stored: number;
  subscriptions: TopicSubscriptionInfo[];
}

export type TopicAction = 'publish' | 'subscribe' | 'unsubscribe' | 'expire' | 'deliver' | 'ack';

export interface TopicTimelineEvent {
  seq: number;
  at: number;
  action: TopicAction;
  plane: string;
  subject: string;
  messageId?: string;
  messageIds?: string[];
  subscriptionId?: string;
  cursor?: string;
  correlationId?: string;
  /** A publish's body, cut for display. */
  body?: ValuePreview;
  fromStudio?: boolean;
  run?: RunLink;
}

export interface TopicViewQuery extends HistoryQuery {
  plane?: string;
  subject?: string;
}

export interface TopicView {
  at: number;
  live: boolean;
  streams: TopicStreamStats[];
  timeline: TopicTimelineEvent[];
  history: HistoryWindow;
}

export interface PublishTopicInput {
  subject: string;
  /** `platform` or `deployment/<integration>`; default the platform plane. */
  plane?: string;
  body: unknown;
  headers?: Record<string, string>;
}

/* ---------- KV ---------- */

export interface KvNamespaceInfo {
  namespace: string;
  keys: number;
  /** `*_secrets`: keys only, never values. */
  secret: boolean;
  /** `*_volatile`: kept in memory; keys listed are those written since the studio started. */
  volatile: boolean;
  updatedAt?: number;
}

export interface KvKeyInfo {
  key: string;
  version: number;
  updatedAt?: number;
  bytes?: number;
  /** Scrubbed views: written after the moment shown (its version then is in `version`, when known). */
  changedSince?: boolean;
}

export interface KvWriteEvent {
  seq: number;
  at: number;
  action: 'put' | 'delete';
  namespace: string;
  key: string;
  version?: number;
  bytes?: number;
  created?: boolean;
  fromStudio?: boolean;
  /** The run whose kv step made the write, when exactly one could have. */
  run?: RunLink;
  /** Runs whose kv step was running at that moment, when more than one was. */
  possibleRuns?: number;
}

export interface KvViewQuery extends HistoryQuery {
  namespace?: string;
  /** Only keys containing this text, any case; searched among every key, not only the listed ones. */
  filter?: string;
}

export interface KvView {
  at: number;
  live: boolean;
  namespaces: KvNamespaceInfo[];
  /** Keys of the chosen namespace (at most 10,000), as of `at`. */
  keys: KvKeyInfo[];
  /** More keys (or more that match the filter) exist than `keys` lists. */
  keysCut: boolean;
  /** Writes and deletes in the chosen namespace, oldest first. */
  writes: KvWriteEvent[];
  history: HistoryWindow;
}

export interface KvEntryDetail {
  namespace: string;
  key: string;
  version: number;
  updatedAt?: number;
  value: ValuePreview;
  /** JSON or text the editor can start from; absent for binary and secret values. */
  editText?: string;
  editFormat?: 'json' | 'text';
  lastWrite?: KvWriteEvent;
}

export interface KvWriteInput {
  namespace: string;
  key: string;
  /** The new value: JSON text (checked) or plain text. */
  text: string;
  format: 'json' | 'text';
  /** The version the edit started from; 0 creates. */
  expectedVersion: number;
}

/** A conflict is an answer, not an error: the panel shows it and the stored value stays. */
export type KvWriteResult = { ok: true; version: number } | { ok: false; conflict: string; currentVersion?: number };

export type KvDeleteResult = { ok: true; deleted: boolean } | { ok: false; conflict: string; currentVersion?: number };

/* ---------- Leases ---------- */

export interface LeaseHolder {
  kind: 'lease' | 'leader';
  name: string;
  holder: string;
  leaseId: string;
  fencingToken: number;
  ttlMs: number;
  grantedAt: number;
  expiresAt: number;
}

export type LeaseAction = 'grant' | 'renew' | 'release' | 'expire' | 'takeover';

export interface LeaseHistoryEvent {
  seq: number;
  at: number;
  action: LeaseAction;
  kind: 'lease' | 'leader';
  name: string;
  holder: string;
  leaseId: string;
  fencingToken?: number;
  expiresAt?: number;
  previousHolder?: string;
  run?: RunLink;
}

export interface LeaseView {
  at: number;
  live: boolean;
  /** Live claims at `at`. */
  holders: LeaseHolder[];
  history: LeaseHistoryEvent[];
  historyWindow: HistoryWindow;
}

/* ---------- Agent memory ---------- */

export interface AgentInfo {
  agentId: string;
  conversations: number;
  memories: number;
  lastActivity: number;
}

export interface ConversationInfo {
  threadKey: string;
  userId?: string;
  title?: string;
  version: number;
  turns: number;
  /** Bytes of saved working memory (never its content: that is the agent's own state); 0 when nothing was saved. */
  workingBytes: number;
  iteration: number;
  tokens: number;
  createdAt: number;
  updatedAt: number;
}

export interface CuratedMemoryInfo {
  userId: string;
  name: string;
  content: ValuePreview;
  version: number;
  updatedAt: number;
}

export interface AgentView {
  agents: AgentInfo[];
  /** Of the chosen agent, most recently active first. */
  conversations: ConversationInfo[];
  memories: CuratedMemoryInfo[];
}

export interface ConversationTurn {
  seq: number;
  createdAt: number;
  turn: ValuePreview;
  /** `role` of the turn object, when it has one. */
  role?: string;
}

export interface ConversationDetail {
  agentId: string;
  conversation: ConversationInfo;
  turns: ConversationTurn[];
  /** More turns than shown (the first 500 are). */
  moreTurns: boolean;
}

export type AgentSearchHit =
  | { kind: 'turn'; score: number; threadKey: string; userId?: string; seq: number; createdAt: number; turn: ValuePreview }
  | { kind: 'memory'; score: number; userId: string; name: string; updatedAt: number; content: ValuePreview };
