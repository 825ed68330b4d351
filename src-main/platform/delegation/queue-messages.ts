import { tooLarge } from '../http/api-error.ts';
import type { QueueDelivery } from '../store/queue-store.ts';
import type { TopicMessage } from '../store/topic-store.ts';

/** A message as publish, request and reply carry it (their schemas in shared/platform-api/queues.ts and topics.ts). */
export interface MessageFields {
  body?: unknown;
  headers?: Record<string, string>;
}

/** A message as stored: `body` (any JSON value, null when absent) and optional string `headers`, as JSON texts. */
export interface MessageText {
  body: string;
  headers: string | null;
}

export function messageText(body: MessageFields, maxBytes: number, subject: string): MessageText {
  const text = JSON.stringify(body.body ?? null);
  if (Buffer.byteLength(text) > maxBytes) {
    throw tooLarge('message_too_large', `the message body for "${subject}" is ${Buffer.byteLength(text)} bytes of JSON; this server accepts at most ${maxBytes}`);
  }
  return { body: text, headers: body.headers ? JSON.stringify(body.headers) : null };
}

/**
 * The receive response, built as text: bodies are stored as JSON text and go out as they are,
 * never parsed and serialized again on the delivery path.
 */
export function queueMessagesJson(batch: QueueDelivery[]): string {
  const items = batch.map(
    (d) =>
      `{"messageId":"${d.messageId}","handle":"${d.handle}","deliveryCount":${d.deliveryCount},"publishedAt":"${new Date(d.publishedAt).toISOString()}",` +
      `${d.replyTo ? `"replyTo":${JSON.stringify(d.replyTo)},` : ''}${d.headers ? `"headers":${d.headers},` : ''}"body":${d.body}}`,
  );
  return `{"messages":[${items.join(',')}]}`;
}

export function topicMessagesJson(batch: TopicMessage[]): string {
  const items = batch.map(
    (m) =>
      `{"messageId":"${m.id}","handle":"${m.id}","publishedAt":"${new Date(m.publishedAt).toISOString()}",` +
      `${m.headers ? `"headers":${m.headers},` : ''}"body":${m.body}}`,
  );
  return `{"messages":[${items.join(',')}]}`;
}
