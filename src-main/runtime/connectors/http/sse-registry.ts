import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SseStream, type StreamRules } from './sse-stream.ts';

/**
 * The live streams of one http connector, by id. An address `<connector>:<id>` is an ordinary
 * string, so whoever holds it (a sub-flow, a queued job) can find the caller's connection here, as
 * long as it runs in this process (spec 2 §2.6).
 */
export class SseRegistry {
  private readonly streams = new Map<string, SseStream>();

  constructor(private readonly connectorName: string) {}

  get size(): number {
    return this.streams.size;
  }

  /** Mints a stream for an accepted request; `onEnd` runs once when it closes or is discarded. */
  open(res: ServerResponse, rules: StreamRules, onEnd: () => void): SseStream {
    const id = randomUUID();
    const stream = new SseStream(`${this.connectorName}:${id}`, res, rules, () => {
      this.streams.delete(id);
      onEnd();
    });
    this.streams.set(id, stream);
    return stream;
  }

  get(id: string): SseStream | undefined {
    return this.streams.get(id);
  }

  /** Connector shutdown closes every stream (spec 2 §3.1). */
  closeAll(): void {
    for (const s of [...this.streams.values()]) s.close();
  }
}

/** Splits an address into connector name and id; a bare id has no connector part. */
export function parseStreamAddress(address: string): { connector: string | undefined; id: string } {
  const colon = address.lastIndexOf(':');
  return colon === -1 ? { connector: undefined, id: address } : { connector: address.slice(0, colon), id: address.slice(colon + 1) };
}
