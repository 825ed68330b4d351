import { tooLarge } from '../http/api-error.ts';
import { optionalStringMap, type JsonObject } from '../http/request-fields.ts';
import type { QueueDelivery } from '../store/queue-store.ts';
import type { TopicMessage } from '../store/topic-store.ts';

/** A message as publish and request carry it: `body` (any JSON value, null when absent) and optional string `headers`. */
export interface MessageText {
  body: string;
  headers: string | null;
}

export function messageText(body: JsonObject, maxBytes: number, subject: string): MessageText {
  const text = JSON.stringify(body.body ?? null);
  if (Buffer.byteLength(text) > maxBytes) {
    throw tooLarge('message_too_large', `the message body for "${subject}" is ${Buffer.byteLength(text)} bytes of JSON; this server accepts at most ${maxBytes}`);
  }
  const headers = optionalStringMap(body, 'headers');
  return { body: text, headers: headers ? JSON.stringify(headers) : null };
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
