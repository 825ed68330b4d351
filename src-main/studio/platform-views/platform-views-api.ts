import { randomBytes } from 'node:crypto';
import type { PlatformViewsApi } from '../../../shared/studio-api.ts';
import type { KvEntryDetail, PublishResult, WaitingMessage } from '../../../shared/platform-views.ts';
import { agentViewsApi } from './agent-views.ts';
import { isSecretNamespace, isVolatileNamespace } from './kv-activity.ts';
import { KeyListings } from './kv-key-search.ts';
import type { PlatformViewsState } from './platform-views.ts';
import { CORRELATION_HEADER } from './queue-traffic.ts';
import { editableText, previewBytes, previewText } from './value-preview.ts';

const MAX_COPIES = 1000;
/** Where secret("name") reads a flow's platform secrets. */
const PLATFORM_SECRETS = 'user_secrets';

/**
 * The panels' StudioApi methods over the views' state and the platform's inspection layer.
 * Optional arguments come as null over the web transport (JSON has no undefined): `?? undefined`.
 */
export function platformViewsApi(views: PlatformViewsState): PlatformViewsApi {
  const { inspect } = views;
  const listings = new KeyListings();
  return {
    async queueView(query) {
      const gauges = await views.queueGauges();
      return views.queues.view(query ?? {}, () => gauges, Date.now());
    },
    async queueMessage(subject, messageId) {
      return views.queues.message(subject, messageId) ?? null;
    },
    async peekQueue(subject, group, limit) {
      return (await inspect.queues.peek(subject, group, limit ?? undefined)).map(
        ({ body, bodyBytes, truncated, ...m }): WaitingMessage => ({ ...m, body: previewText(body, bodyBytes, truncated) }),
      );
    },
    async publishQueueMessage(input) {
      const count = Math.min(Math.max(1, Math.floor(input.count ?? 1)), MAX_COPIES);
      const correlationId = studioCorrelationId();
      const headers = { ...input.headers, [CORRELATION_HEADER]: correlationId };
      const result: PublishResult = { messageIds: [], correlationId, groups: [] };
      await views.asStudio(views.queues, async () => {
        // The copies at once, in order: the store commits them together (one group commit) and
        // receivers take them in batches, rather than one commit and one wake-up per copy.
        const published = await Promise.all(
          Array.from({ length: count }, () => inspect.queues.publish(input.subject, input.body, { headers, consumerGroup: input.consumerGroup ?? undefined })),
        );
        result.messageIds = published.map((p) => p.messageId);
        result.groups = published[published.length - 1].groups;
      });
      return result;
    },
    async purgeQueue(subject, group) {
      const oneGroup = group ?? undefined;
      const purged = await inspect.queues.purge(subject, oneGroup);
      views.queues.purged(subject, oneGroup, purged);
      return { purged };
    },
    async topicView(query) {
      const state = await views.topicState();
      return views.topics.view(query ?? {}, () => state, Date.now());
    },
    async publishTopicMessage(input) {
      const correlationId = studioCorrelationId();
      const messageId = await views.asStudio(views.topics, () =>
        inspect.topics.publish(input.plane ?? 'platform', input.subject, input.body, { ...input.headers, [CORRELATION_HEADER]: correlationId }),
      );
      return { messageIds: [messageId], correlationId, groups: [] };
    },
    async deleteTopicSubscription(subscriptionId) {
      return inspect.topics.deleteSubscription(subscriptionId);
    },
    async kvView(query) {
      // The view reads the namespaces and the chosen namespace's keys; read them first.
      const namespaces = await inspect.kv.namespaces();
      const ns = query?.namespace ?? undefined;
      const filter = query?.filter ?? undefined;
      const counts = namespaces.find((n) => n.namespace === ns);
      const listed = ns === undefined || isVolatileNamespace(ns) ? { keys: [], cut: false } : await listings.listed(inspect.kv, counts, ns, filter);
      // A copy: the view sorts what it is given, and a listing is kept for the next poll.
      const view = views.kv.view(query ?? {}, { namespaces: () => namespaces, keys: () => listed.keys.slice() }, Date.now());
      // Keys rebuilt from history (a view of the past) are filtered here too.
      const needle = filter?.trim().toLowerCase();
      return { ...view, keys: needle ? view.keys.filter((k) => k.key.toLowerCase().includes(needle)) : view.keys, keysCut: listed.cut };
    },
    async kvEntry(namespace, key) {
      const stored = await inspect.kv.entry(namespace, key);
      if (!stored) return null;
      const detail: KvEntryDetail = { namespace, key, version: stored.version, value: { kind: 'secret' } };
      if (stored.updatedAt !== undefined) detail.updatedAt = stored.updatedAt;
      // A secret's bytes are never read here (the inspection layer does not return them either).
      if (!stored.secret && stored.value && !isSecretNamespace(namespace)) {
        detail.value = previewBytes(stored.value);
        const editable = editableText(stored.value);
        if (editable) {
          detail.editText = editable.text;
          detail.editFormat = editable.format;
        }
      }
      const lastWrite = views.kv.lastWrite(namespace, key);
      if (lastWrite) detail.lastWrite = lastWrite;
      return detail;
    },
    async writeKvEntry(input) {
      const bytes = valueBytes(input.text, input.format);
      const outcome = await views.asStudio(views.kv, () => inspect.kv.put(input.namespace, input.key, bytes, input.expectedVersion));
      if (outcome.ok) return { ok: true, version: outcome.version };
      const current = (await inspect.kv.entry(input.namespace, input.key))?.version;
      return { ok: false, conflict: `Not saved: ${outcome.conflict}.`, ...(current !== undefined ? { currentVersion: current } : {}) };
    },
    async deleteKvEntry(namespace, key, expectedVersion) {
      const outcome = await views.asStudio(views.kv, () => inspect.kv.delete(namespace, key, expectedVersion));
      if (outcome.ok) return { ok: true, deleted: outcome.deleted };
      const current = (await inspect.kv.entry(namespace, key))?.version;
      return { ok: false, conflict: `Not deleted: ${outcome.conflict}.`, ...(current !== undefined ? { currentVersion: current } : {}) };
    },
    async setPlatformSecret(name, value) {
      // No message here may quote the value.
      if (value === '') throw new Error('a platform secret needs a value: type it in the write-only field');
      const version = await views.asStudio(views.kv, () => inspect.kv.putSecret(PLATFORM_SECRETS, name, Buffer.from(value, 'utf8')));
      return { version };
    },
    async leaseView(query) {
      const claims = await inspect.leases.claims();
      return views.leases.view(query ?? {}, () => claims, Date.now());
    },
    ...agentViewsApi(inspect.agents),
    async platformHistory() {
      return views.queues.history.window(Date.now());
    },
    async setPlatformHistory(minutes) {
      return views.setHistoryMinutes(minutes);
    },
  };
}

/** A correlation id for a message the panel publishes, so the run it starts can be found. */
function studioCorrelationId(): string {
  return `studio-${randomBytes(8).toString('hex')}`;
}

function valueBytes(text: string, format: 'json' | 'text'): Buffer {
  if (format === 'text') return Buffer.from(text, 'utf8');
  try {
    // Stored compact: flows read the value, not its layout.
    return Buffer.from(JSON.stringify(JSON.parse(text)), 'utf8');
  } catch (err) {
    throw new Error(`the value is not JSON (${(err as Error).message}); fix it or save it as text`);
  }
}
