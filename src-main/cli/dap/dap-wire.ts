import type { Readable, Writable } from 'node:stream';
import type { DebugProtocol } from '@vscode/debugprotocol';

const HEADER_END = Buffer.from('\r\n\r\n');
/** A message bigger than this is refused rather than buffered: no DAP request comes near it. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * The Debug Adapter Protocol's base protocol over a pair of streams: each message is a
 * `Content-Length: N\r\n\r\n` header and N bytes of UTF-8 JSON. Reads requests as they arrive in
 * chunks of any size; writes responses and events with their sequence numbers.
 */
export class DapWire {
  private buffer: Buffer = Buffer.alloc(0);
  private seq = 1;
  private closed = false;

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly onMessage: (message: DebugProtocol.ProtocolMessage) => void,
    private readonly onProblem: (problem: string) => void,
  ) {
    input.on('data', (chunk: Buffer) => this.take(chunk));
  }

  send(message: Omit<DebugProtocol.Response, 'seq'> | Omit<DebugProtocol.Event, 'seq'>): void {
    if (this.closed) return;
    const json = JSON.stringify({ ...message, seq: this.seq++ });
    this.output.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`);
  }

  /** Writes what is queued, then stops writing. */
  close(): Promise<void> {
    this.closed = true;
    return new Promise((resolve) => this.output.write('', () => resolve()));
  }

  private take(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const length = /(?:^|\r\n)Content-Length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header)?.[1];
      if (length === undefined || Number(length) > MAX_MESSAGE_BYTES) {
        this.onProblem(length === undefined ? `a message header without Content-Length: ${JSON.stringify(header)}` : `a message of ${length} bytes is over the ${MAX_MESSAGE_BYTES}-byte limit`);
        // Skip the broken header; what follows may be a good message.
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        continue;
      }
      const start = end + HEADER_END.length;
      if (this.buffer.length < start + Number(length)) return;
      const body = this.buffer.subarray(start, start + Number(length)).toString('utf8');
      this.buffer = this.buffer.subarray(start + Number(length));
      let message: DebugProtocol.ProtocolMessage;
      try {
        message = JSON.parse(body) as DebugProtocol.ProtocolMessage;
      } catch (err) {
        this.onProblem(`a message that is not JSON (${(err as Error).message}): ${body.slice(0, 200)}`);
        continue;
      }
      this.onMessage(message);
    }
  }
}
