/**
 * A minimal server-sent events reader over fetch, for tests: the `eventsource` npm client is not
 * installed here, and reading the wire format directly also lets tests see comments (heartbeats).
 */
export interface SseFrame {
  event?: string;
  data?: string;
  /** A comment line such as `: ping`, without the colon. */
  comment?: string;
}

export class SseReader {
  private buffer = '';
  private done = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  private constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
  }

  static async open(url: string, init: RequestInit = {}): Promise<SseReader> {
    const response = await fetch(url, { ...init, headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string>) } });
    return new SseReader(response);
  }

  /** The next frame or comment, or undefined once the server ended the stream. */
  async next(timeoutMs = 5_000): Promise<SseFrame | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parseBlock(block);
      }
      if (this.done) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE frame within ${timeoutMs}ms; buffered: ${JSON.stringify(this.buffer)}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no SSE frame within ${timeoutMs}ms`)), left))),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.done = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Every remaining frame until the server ends the stream. */
  async rest(timeoutMs = 5_000): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    for (let f = await this.next(timeoutMs); f !== undefined; f = await this.next(timeoutMs)) frames.push(f);
    return frames;
  }

  /** Hangs up as a browser tab closing would. */
  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}

function parseBlock(block: string): SseFrame {
  const frame: SseFrame = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else if (line.startsWith('event:')) frame.event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length > 0) frame.data = data.join('\n');
  return frame;
}
