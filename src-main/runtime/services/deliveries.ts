import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { Delivery } from './platform-services.ts';

/**
 * A receive response: `{messages: [...]}` (or a bare array), each message with the handle that
 * settles it. A message without a handle cannot be settled and is skipped rather than guessed at.
 */
export function parseDeliveries(doc: unknown): Delivery[] {
  const list = Array.isArray(doc) ? doc : doc && typeof doc === 'object' ? (doc as { messages?: unknown }).messages : undefined;
  if (!Array.isArray(list)) return [];
  const out: Delivery[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const m = item as Record<string, unknown>;
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
