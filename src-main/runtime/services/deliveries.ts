import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { Static } from '@sinclair/typebox';
import type { QueueMessage, QueueReceiveResponse } from '../../../shared/platform-api/queues.ts';
import type { TopicReceiveResponse } from '../../../shared/platform-api/topics.ts';
import type { Delivery } from './platform-services.ts';

/** A delivered message as the contract names its fields, plus the names other platforms use (`ackId`, `id`). */
type WireMessage = Partial<Static<typeof QueueMessage>> & { ackId?: unknown; id?: unknown };

/**
 * A receive response: `{messages: [...]}` (or a bare array), each message with the handle that
 * settles it. A message without a handle cannot be settled and is skipped rather than guessed at.
 */
export function parseDeliveries(doc: Static<typeof QueueReceiveResponse> | Static<typeof TopicReceiveResponse> | unknown[]): Delivery[] {
  const list: unknown = Array.isArray(doc) ? doc : doc && typeof doc === 'object' ? doc.messages : undefined;
  if (!Array.isArray(list)) return [];
  const out: Delivery[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const m = item as WireMessage;
    const handle = typeof m.handle === 'string' ? m.handle : typeof m.ackId === 'string' ? m.ackId : undefined;
    if (!handle) continue;
    out.push({
      handle,
      messageId: typeof m.messageId === 'string' ? m.messageId : typeof m.id === 'string' ? m.id : undefined,
      body: m.body ?? null,
      headers: stringMap(m.headers),
      deliveryCount: typeof m.deliveryCount === 'number' ? m.deliveryCount : 1,
      replyTo: typeof m.replyTo === 'string' ? m.replyTo : undefined,
    });
  }
  return out;
}

function stringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Waits `ms` on `clock`, or less when the signal aborts (then resolves quietly: the caller checks its state). */
export function sleep(ms: number, signal?: AbortSignal, clock: Clock = systemClock): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
